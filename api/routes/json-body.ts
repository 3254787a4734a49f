/**
 * JSON bodies that routes read as text (their plugin parses JSON itself): documented in OpenAPI
 * as the object they are, an empty body being `{}`, and parsed with zod at the edge.
 */
import { z } from 'zod';
import { errors } from '../../lib/errors/errors.js';
import { parseOrThrow } from '../../lib/errors/skillflow-error.js';

/** A body read as text, documented as the object of these properties; an empty body is allowed. */
export const optionalJsonBody = (properties: Record<string, unknown>, description: string) =>
  z.unknown().meta({ type: 'object', properties, additionalProperties: false }).describe(description);

/** A body read as text, documented as `schema` is (its input form). */
export const jsonBody = (schema: z.ZodType, description: string) => {
  const { $schema: _, ...documented } = z.toJSONSchema(schema, { io: 'input' });
  return z.unknown().meta(documented).describe(description);
};

/** A JSON body of `schema` (an empty body is `{}`); not JSON is 400 INVALID_BODY. */
export function parseJsonBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  let parsed: unknown = {};
  if (typeof body === 'string' && body.trim()) {
    try {
      parsed = JSON.parse(body);
    } catch {
      throw errors.invalidBody();
    }
  }
  return parseOrThrow(schema, parsed);
}

/**
 * Lets a plugin's routes read JSON bodies as text, up to `bodyLimit` bytes. The limit is set on
 * each route of the plugin (unless the route sets its own), so it holds for every content type
 * and a 413 can state it.
 */
export function jsonBodiesAsText(
  app: {
    removeContentTypeParser(type: string): void;
    addContentTypeParser(
      types: string[],
      opts: { parseAs: 'string' },
      parser: (req: unknown, body: string, done: (err: null, body: string) => void) => void,
    ): void;
    addHook(name: 'onRoute', hook: (route: { bodyLimit?: number }) => void): unknown;
  },
  types: string[],
  bodyLimit: number,
): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(types, { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= bodyLimit;
  });
}
