/**
 * Parses one upstream answer body against its zod wire schema. A body that is not JSON, or JSON
 * that does not match, is UPSTREAM_MALFORMED naming the provider (never quoting the body).
 */
import type { z } from 'zod';
import { errors } from '../lib/errors/errors.js';

/** `text` parsed as JSON and checked by `schema`; `label` names the upstream in the message. */
export function parseWire<S extends z.ZodType>(
  text: string,
  schema: S,
  provider: string,
  label: string,
): z.infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw errors.upstreamMalformed({ upstream: label, provider });
  return parsed.data;
}
