/**
 * Which chat webhook URLs are accepted: https anywhere, plain http only to a loopback host and
 * only outside production (local development receivers). No credentials in the URL: they
 * would end up stored and shown in tools that print URLs.
 */
import { isIP } from 'node:net';

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** Undefined for an acceptable URL, else a message naming the problem (never echoing the URL). */
export function webhookUrlProblem(raw: string, production: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not contain credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    if (production) return 'must use https in production';
    return isLoopback(url.hostname)
      ? undefined
      : 'must use https (plain http is allowed only to a loopback host)';
  }
  return 'must use https';
}

/**
 * The documented shape of an acceptable URL (a subset {@link webhookUrlProblem} accepts): https
 * with a host name and optional port and path, or plain http to 127.0.0.1 or localhost.
 */
export const WEBHOOK_URL_PATTERN =
  /^(?:[Hh][Tt][Tt][Pp][Ss]:\/\/(?:[A-Za-z0-9-]+\.)*[A-Za-z][A-Za-z0-9-]*|[Hh][Tt][Tt][Pp]:\/\/(?:localhost|127\.0\.0\.1))(?::[0-9]{1,4})?(?:\/[!-~]*)?$/;
