/**
 * The remote codec endpoint for the Temporal Web UI (POST /codec/decode, /codec/encode), so
 * operators who hold the key can read encrypted payloads. Access: a bearer token from the
 * secret store (`codec_auth_token`) when configured. Without one, development allows loopback
 * clients only (the dev UI runs in the operator's own browser on this machine) and production
 * (`NODE_ENV=production`) allows nobody: there the endpoint needs the token.
 */
import cors from '@fastify/cors';
import type { Payload } from '@temporalio/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AesGcmPayloadCodec } from '../../lib/crypto/codec.js';
import { errors } from '../../lib/errors/errors.js';
import type { ApiDeps } from '../deps.js';

const JsonPayload = z.object({
  metadata: z.record(z.string(), z.base64()).optional(),
  data: z.base64().optional(),
});
const CodecBody = z.object({ payloads: z.array(JsonPayload).max(1000) });

function fromJson(p: z.infer<typeof JsonPayload>): Payload {
  const metadata: Record<string, Uint8Array> = {};
  for (const [k, v] of Object.entries(p.metadata ?? {})) metadata[k] = Buffer.from(v, 'base64');
  return { metadata, data: Buffer.from(p.data ?? '', 'base64') };
}

function toJson(p: Payload): z.infer<typeof JsonPayload> {
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.metadata ?? {}))
    if (v) metadata[k] = Buffer.from(v).toString('base64');
  return { metadata, data: Buffer.from(p.data ?? new Uint8Array()).toString('base64') };
}

function isLoopback(ip: string): boolean {
  return ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1';
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const codecRoutes =
  (deps: ApiDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const origins = deps.config.api.CODEC_CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean);
    await app.register(cors, {
      origin: origins,
      credentials: true,
      methods: ['POST', 'OPTIONS'],
      allowedHeaders: ['content-type', 'x-namespace', 'authorization'],
    });
    const codec = new AesGcmPayloadCodec(deps.keyring);
    const token = deps.secrets.get('codec_auth_token');
    const production = deps.config.process.NODE_ENV === 'production';
    if (!token && production)
      deps.logger.warn('codec endpoint disabled: set the codec_auth_token secret to enable it in production');

    app.addHook('onRequest', async (req) => {
      if (req.method === 'OPTIONS') return;
      if (token) {
        const header = req.headers.authorization ?? '';
        if (!header.startsWith('Bearer ') || !sameToken(header.slice(7), token))
          throw errors.unauthenticated();
      } else if (production) {
        throw errors.forbidden('The codec endpoint needs codec_auth_token in production.');
      } else if (!isLoopback(req.ip)) {
        throw errors.forbidden(
          'The codec endpoint is open to loopback clients only unless codec_auth_token is set.',
        );
      }
    });

    for (const op of ['encode', 'decode'] as const) {
      app.post(
        `/codec/${op}`,
        {
          schema: {
            tags: ['operations'],
            summary: `Temporal remote codec: ${op} payloads (for the Web UI)`,
            body: CodecBody,
            response: { 200: CodecBody },
          },
        },
        async (req) => {
          const payloads = req.body.payloads.map(fromJson);
          try {
            const out = op === 'encode' ? await codec.encode(payloads) : await codec.decode(payloads);
            return { payloads: out.map(toJson) };
          } catch {
            throw errors.invalidParameter(
              [{ path: 'payloads', message: 'undecodable payload' }],
              'A payload could not be decoded with the keys this server holds.',
            );
          }
        },
      );
    }
  };
