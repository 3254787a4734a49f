/**
 * The onRequest hook of unauthenticated routes: the per-IP limit (lib/limits/ip-rate-limit.ts)
 * on the client address Fastify derives from TRUST_PROXY, counted per /64 for IPv6.
 */
import type { FastifyRequest } from 'fastify';
import type { IpRateLimit } from '../lib/limits/ip-rate-limit.js';
import { ipLimitKey } from '../lib/net/client-ip.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by api/app.ts: the per-IP limit of the unauthenticated routes. */
    ipRateLimit: IpRateLimit;
  }
}

/** The address key per-IP limits and anonymous allowances count this request under. */
export function clientKey(req: FastifyRequest): string {
  return ipLimitKey(req.ip);
}

/** Register with `addHook('onRequest', limitPerIp(...))` on a public route plugin. */
export function limitPerIp(limit: IpRateLimit) {
  return async (req: FastifyRequest): Promise<void> => {
    await limit.consume(clientKey(req));
  };
}
