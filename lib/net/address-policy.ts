/**
 * Which IP addresses an outbound webhook may connect to: public unicast only. Pure (no I/O), so
 * one table test covers it. IPv6 forms that embed an IPv4 address (IPv4-mapped, IPv4-compatible,
 * NAT64 64:ff9b::/96, 6to4) are judged by the embedded address.
 */
import { isIP } from 'node:net';

/** Why an address is refused; undefined when it is public. */
export type AddressClass =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'metadata'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'invalid';

type Range = readonly [prefix: number[], bits: number, cls: AddressClass];

/** IPv4 ranges that are not public (RFC 6890 special-purpose registry and friends). */
const V4: readonly Range[] = [
  [[169, 254, 169, 254], 32, 'metadata'],
  [[100, 100, 100, 200], 32, 'metadata'],
  [[255, 255, 255, 255], 32, 'broadcast'],
  [[0], 8, 'unspecified'],
  [[10], 8, 'private'],
  [[100, 64], 10, 'shared'],
  [[127], 8, 'loopback'],
  [[169, 254], 16, 'link-local'],
  [[172, 16], 12, 'private'],
  [[192, 0, 0], 24, 'reserved'],
  [[192, 0, 2], 24, 'reserved'],
  [[192, 88, 99], 24, 'reserved'],
  [[192, 168], 16, 'private'],
  [[198, 18], 15, 'reserved'],
  [[198, 51, 100], 24, 'reserved'],
  [[203, 0, 113], 24, 'reserved'],
  [[224], 4, 'multicast'],
  [[240], 4, 'reserved'],
];

/** IPv6 ranges that are not public; only 2000::/3 outside these is. */
const V6: readonly Range[] = [
  [[0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54], 128, 'metadata'],
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, 'reserved'],
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, 'private'],
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'reserved'],
  [[0x20, 0x01, 0x00], 23, 'reserved'],
  [[0xfc], 7, 'private'],
  [[0xfe, 0x80], 10, 'link-local'],
  [[0xfe, 0xc0], 10, 'private'],
  [[0xff], 8, 'multicast'],
];

function inRange(bytes: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i / 8] ?? 0) & mask) !== ((prefix[i / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function classify(bytes: readonly number[], table: readonly Range[]): AddressClass | undefined {
  return table.find(([prefix, bits]) => inRange(bytes, prefix, bits))?.[2];
}

/** The 16 bytes of a valid IPv6 address (with or without an embedded dotted IPv4 tail). */
function ipv6Bytes(text: string): number[] {
  let head = text;
  let tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    tail = dotted[1].split('.').map(Number);
    head = text.slice(0, -dotted[1].length) + '0:0';
  }
  const [left = '', right] = head.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const l = groups(left);
  const r = right === undefined ? [] : groups(right);
  const words = [...l, ...Array<number>(8 - l.length - r.length).fill(0), ...r];
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/**
 * The class of a non-public address, or undefined for a public unicast address. `address` is an
 * IP literal (IPv6 without brackets; a zone id makes it link-local).
 */
export function classifyAddress(address: string): AddressClass | undefined {
  const family = isIP(address);
  if (family === 4) return classify(address.split('.').map(Number), V4);
  if (family !== 6) return 'invalid';
  if (address.includes('%')) return 'link-local';
  const b = ipv6Bytes(address.toLowerCase());
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const v4 = (at: number) => b.slice(at, at + 4).join('.');
  if (zeros(0, 16)) return 'unspecified';
  if (zeros(0, 15) && b[15] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible) and 64:ff9b::a.b.c.d (NAT64).
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return classifyAddress(v4(12));
  if (zeros(0, 12)) return classifyAddress(v4(12)) ?? 'reserved';
  if (inRange(b, [0x00, 0x64, 0xff, 0x9b], 32) && zeros(4, 12)) return classifyAddress(v4(12));
  if (b[0] === 0x20 && b[1] === 0x02) return classifyAddress(v4(2)) ?? undefined;
  const special = classify(b, V6);
  if (special) return special;
  return (b[0]! & 0xe0) === 0x20 ? undefined : 'reserved';
}

/** Whether an outbound connection to `address` is allowed; loopback only when opted in. */
export function isAllowedAddress(address: string, opts: { allowLoopback: boolean }): boolean {
  const cls = classifyAddress(address);
  return cls === undefined || (cls === 'loopback' && opts.allowLoopback);
}
