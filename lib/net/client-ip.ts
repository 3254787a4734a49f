/**
 * The key a client address is counted under for per-IP limits: an IPv4 address as it is (also
 * when it arrives IPv4-mapped, `::ffff:1.2.3.4`), an IPv6 address by its /64 prefix, since one
 * subscriber usually holds a whole /64 and could otherwise rotate through 2^64 addresses.
 * Which address is the client's is decided by Fastify's `trustProxy` (TRUST_PROXY).
 */
import { isIP } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail counts as two). */
function ipv6Groups(ip: string): number[] {
  let text = ip.split('%')[0]!.toLowerCase();
  const v4Tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4Tail) {
    const [a, b, c, d] = v4Tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4Tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const fill = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...fill, ...right];
}

/** `203.0.113.7` → `203.0.113.7`; `2001:db8:1:2:a:b:c:d` → `2001:db8:1:2::/64`. */
export function ipLimitKey(ip: string): string {
  const family = isIP(ip.split('%')[0]!);
  if (family === 4) return ip;
  if (family !== 6) return ip;
  const groups = ipv6Groups(ip);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
