/**
 * Responses that are not JSON in the OpenAPI document. The zod type provider documents every
 * response as `application/json`; a response schema that names its media type with the JSON
 * Schema keyword `contentMediaType` (e.g. `text/plain` for Prometheus text) is moved under that
 * media type, so the document states the `Content-Type` the route sends.
 */
import type { OpenAPIV3_1 } from 'openapi-types';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Moves such responses to their own media type in `doc` (in place) and returns it. */
export function declareMediaTypes(doc: OpenAPIV3_1.Document): OpenAPIV3_1.Document {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of METHODS) {
      for (const response of Object.values(item?.[method]?.responses ?? {})) {
        if ('$ref' in response) continue;
        const json = response.content?.['application/json'];
        const schema = json?.schema as { contentMediaType?: unknown } | undefined;
        if (!json || typeof schema?.contentMediaType !== 'string') continue;
        response.content = { [schema.contentMediaType]: json };
      }
    }
  }
  return doc;
}
