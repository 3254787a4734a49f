/**
 * OpenAPI `links` (3.1 section 4.8.20) between the operations that create a resource and those
 * that read or change it, so clients and contract testers (Schemathesis' stateful phase) can
 * follow ids from one answer into the next request. Derived from the document itself by three
 * rules, so new routes join the graph without declaring anything:
 *
 * 1. a `201` of `POST /collection` with an `id` feeds the first parameter of every operation
 *    under `/collection/{param}` (workflows, keys);
 * 2. a `2xx` with a top-level `task_id` or `embed_id` feeds every operation whose path has that
 *    parameter (runs and skill calls → tasks, embeds);
 * 3. `GET /v1/apps/{app_id}` feeds its first skill into the skill routes.
 */
import type { OpenAPIV3_1 } from 'openapi-types';

type Document = OpenAPIV3_1.Document;
type Operation = OpenAPIV3_1.OperationObject;
type Link = OpenAPIV3_1.LinkObject;

interface Op {
  path: string;
  method: string;
  operation: Operation;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
/** Response properties that are ids of a resource with its own routes. */
const ID_PROPERTIES = ['task_id', 'embed_id'] as const;

function operations(doc: Document): Op[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item?.[method];
      return operation ? [{ path, method, operation }] : [];
    }),
  );
}

function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/** `#/paths/~1v1~1tasks~1%7Btask_id%7D/get`: a JSON pointer, URI-encoded as a fragment. */
function operationRef(op: Op): string {
  const pointer = op.path.replaceAll('~', '~0').replaceAll('/', '~1');
  return `#/paths/${encodeURIComponent(pointer).replaceAll('%7E', '~')}/${op.method}`;
}

/** `GetV1TasksTaskId`: a stable, readable name for a link to `op`. */
function linkName(op: Op): string {
  const words = `${op.method} ${op.path}`.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function topLevelProperties(response: OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject): string[] {
  if ('$ref' in response) return [];
  const schema = response.content?.['application/json']?.schema;
  return schema && 'properties' in schema && schema.properties ? Object.keys(schema.properties) : [];
}

function addLink(source: Op, status: string, target: Op, parameters: Record<string, string>): void {
  const response = source.operation.responses?.[status];
  if (!response || '$ref' in response) return;
  const links = (response.links ??= {});
  links[linkName(target)] = { operationRef: operationRef(target), parameters } satisfies Link;
}

/** Adds the links of the three rules above to `doc` (in place) and returns it. */
export function addOpenApiLinks(doc: Document): Document {
  const ops = operations(doc);
  for (const source of ops) {
    for (const [status, response] of Object.entries(source.operation.responses ?? {})) {
      if (!/^2\d\d$/.test(status)) continue;
      const props = topLevelProperties(response);
      if (source.method === 'post' && status === '201' && props.includes('id')) {
        for (const target of ops) {
          const params = pathParams(target.path);
          if (params.length === 1 && target.path.startsWith(`${source.path}/{${params[0]}}`))
            addLink(source, status, target, { [params[0]!]: '$response.body#/id' });
        }
      }
      for (const prop of ID_PROPERTIES.filter((p) => props.includes(p))) {
        for (const target of ops.filter((t) => pathParams(t.path).includes(prop)))
          addLink(source, status, target, { [prop]: `$response.body#/${prop}` });
      }
    }
  }
  const app = ops.find((o) => o.method === 'get' && o.path === '/v1/apps/{app_id}');
  for (const target of ops.filter(
    (o) => o.method === 'get' && o.path.startsWith('/v1/apps/{app_id}/skills/'),
  ))
    if (app)
      addLink(app, '200', target, {
        app_id: '$request.path.app_id',
        skill_id: '$response.body#/skills/0/id',
      });
  return doc;
}
