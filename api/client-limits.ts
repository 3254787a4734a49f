/**
 * The onRequest hook of unauthenticated routes: the per-IP limit (lib/limits/ip-rate-limit.ts)
 * on the client address Fastify derives from TRUST_PROXY, counted per /64 for IPv6.
 */
import type { FastifyRequest } from 'fastify';
import type { Limits } from '../lib/limits/index.js';
import { ipLimitKey } from '../lib/net/client-ip.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by api/app.ts: every limit of the API (lib/limits/index.ts). */
    limits: Limits;
  }
}

/** The address key per-IP limits and anonymous allowances count this request under. */
export function clientKey(req: FastifyRequest): string {
  return ipLimitKey(req.ip);
}

/** Register with `addHook('onRequest', limitPerIp(...))` on a public route plugin. */
export function limitPerIp(limits: Pick<Limits, 'charge'>) {
  return async (req: FastifyRequest): Promise<void> => {
    await limits.charge('ip', clientKey(req));
  };
}
