/**
 * Builds the Fastify app: zod validation and serialisation, the OpenAPI document generated from
 * the same schemas (/v1/openapi.json, docs page at /v1/docs), one error handler, and request
 * logs that carry the route pattern, status and timing only: never query strings, bodies,
 * path ids or headers. The client address comes from TRUST_PROXY (proxies trusted to set
 * X-Forwarded-For); the server bounds how long a client may take to send its headers and its
 * whole request (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS). While tracing is on, each
 * request is a span (api/request-trace.ts).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ApiDeps } from './deps.js';
import { appRouteTags, mountAppRoutes } from './app-routes.js';
import { trackAllowedMethods } from './allowed-methods.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './errors.js';
import { documentIdempotency, installIdempotency } from './idempotency.js';
import { addOpenApiLinks } from './links.js';
import { declareMediaTypes } from './media-types.js';
import { RoutePatternLogController } from './request-log.js';
import { traceRequests } from './request-trace.js';
import { activeTracing } from '../lib/tracing/index.js';
import { PrincipalCache } from '../lib/key-cache.js';
import { KeyUseRecorder } from '../lib/key-use.js';
import { definitionCacheOf } from '../lib/definition-cache.js';
import { watchDefinitionChanges } from '../lib/definition-changes.js';
import { watchKeyRevocations } from '../lib/key-revocations.js';
import { clearExpiredCounters } from '../lib/store/owners/rate-limits.js';
import type {} from './client-limits.js';
import { anonymousRoutes } from './routes/anonymous.js';
import { chatRoutes } from './routes/chats.js';
import { codecRoutes } from './routes/codec.js';
import { embedRoutes } from './routes/embeds.js';
import { sessionRoutes } from './routes/sessions.js';
import { assetRoutes } from './routes/assets.js';
import { keyRoutes } from './routes/keys.js';
import { healthRoutes } from './routes/health.js';
import { metricsRoutes } from './routes/metrics.js';
import { skillRoutes } from './routes/skills.js';
import { taskRoutes } from './routes/tasks.js';
import { runRoutes } from './routes/runs.js';
import { runSearchRoutes } from './routes/run-search.js';
import { approvalRoutes } from './routes/approvals.js';
import { eventRoutes } from './routes/events.js';
import { hookRoutes } from './routes/hooks.js';
import { usageRoutes } from './routes/usage.js';
import { webRoutes } from './routes/web.js';
import { workflowRoutes } from './routes/workflows.js';
import { workspaceRoutes } from './routes/workspace.js';
import { standardErrorResponses, type RouteSchemaShape } from './schemas.js';
import { createServices } from './services/index.js';

export const API_VERSION = '0.1.0';

export type App = FastifyInstance;

/**
 * zod validation of every request part; headers are checked but never replaced by the parsed
 * copy (Fastify copies a replaced headers object on every read, and no headers schema transforms).
 */
const headersCheckedNotReplaced: typeof validatorCompiler = (route) => {
  const validate = validatorCompiler(route);
  if (route.httpPart !== 'headers') return validate;
  return (data: unknown) => {
    const result = validate(data);
    return typeof result === 'object' && 'error' in result && result.error ? result : true;
  };
};

export async function buildApp(deps: ApiDeps): Promise<App> {
  // Widened to Fastify's logger type so the app keeps Fastify's default generics.
  const logger: FastifyBaseLogger = deps.logger.child({ component: 'api' });
  const { HTTP_REQUEST_TIMEOUT_MS: requestTimeout, TRUST_PROXY } = deps.config.api;
  const app = Fastify({
    loggerInstance: logger,
    logController: new RoutePatternLogController(),
    bodyLimit: 1024 * 1024,
    trustProxy: TRUST_PROXY.length > 0 ? TRUST_PROXY : false,
    requestTimeout,
    http: {
      // Node refuses a headers timeout longer than the request timeout.
      headersTimeout: Math.min(deps.config.api.HTTP_HEADERS_TIMEOUT_MS, requestTimeout),
      requestTimeout,
      // How often Node looks for connections past those timeouts (its default is 30 s).
      connectionsCheckingInterval: 1000,
    },
    // Above every documented path parameter limit, so zod names the parameter and its rule; longer
    // ones get the envelope from frameworkErrors.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(headersCheckedNotReplaced);
  app.setSerializerCompiler(serializerCompiler);
  const tracing = activeTracing();
  if (tracing) traceRequests(app, tracing);
  registerErrorHandling(app, trackAllowedMethods(app));
  // Framework-level error responses are declared here once for every documented route.
  app.addHook('onRoute', (route) => {
    const schema = route.schema as (RouteSchemaShape & { hide?: boolean; response?: object }) | undefined;
    if (!schema || schema.hide) return;
    schema.response = { ...standardErrorResponses(schema), ...schema.response };
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'skillflow API',
        version: API_VERSION,
        description:
          'Run app skills, start workflows and poll long-running work by task_id. Errors are `{ error: { code, message, details } }`.',
      },
      servers: [
        { url: deps.config.api.PUBLIC_URL ?? `http://${deps.config.api.HOST}:${deps.config.api.PORT}` },
      ],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key token' } },
      },
      tags: [
        { name: 'skills', description: 'App and skill calls' },
        { name: 'workflows', description: 'Workflow definitions and runs' },
        { name: 'tasks', description: 'Long-running work' },
        ...appRouteTags(deps),
        { name: 'operations', description: 'Health and operator tools' },
      ],
    },
    transform: jsonSchemaTransform,
    transformObject: (doc) =>
      'openapiObject' in doc
        ? documentIdempotency(declareMediaTypes(addOpenApiLinks(doc.openapiObject as OpenAPIV3_1.Document)))
        : doc.swaggerObject,
  });
  await app.register(swaggerUi, { routePrefix: '/v1/docs' });
  app.get('/v1/openapi.json', { schema: { hide: true } }, () => app.swagger());

  // Verified keys for API_KEY_CACHE_TTL_MS; a key revoked here is dropped at once, one revoked
  // through another API process as soon as its NOTIFY arrives (docs/api.md).
  // Each key's last use is recorded to a minute (lib/key-use.ts).
  const keyUse = new KeyUseRecorder(deps.store);
  const principals = new PrincipalCache(deps.store, {
    ttlMs: deps.config.api.API_KEY_CACHE_TTL_MS,
    onUse: (keyId) => keyUse.touch(keyId),
  });
  app.decorate('principals', principals);
  const revocations = watchKeyRevocations(deps.store, principals, logger);
  app.addHook('onClose', async () => revocations?.close());
  // Opened definitions are cached per process (lib/definition-cache.ts); on PostgreSQL each
  // process hears the others' saves and deletes.
  const definitionChanges = watchDefinitionChanges(deps.store, definitionCacheOf(deps.store), logger);
  app.addHook('onClose', async () => definitionChanges?.close());
  // Every limit of the API (lib/limits/index.ts): the tier limit applied by `authenticate` on
  // every authenticated route (X-RateLimit-* headers, 429) and by skill calls together with
  // their provider limits (api/services/call-limits.ts); the per-IP limit applied by
  // `limitPerIp` on every unauthenticated route (anonymous, quote, status, health).
  const { limits } = deps;
  app.decorate('limits', limits);
  const services = createServices(deps, { principals });
  // First-party workspace sessions: `authenticate` accepts their cookie (api/routes/sessions.ts).
  app.decorate('sessions', services.sessions);
  // Routes with `config: { idempotent: true }` take the Idempotency-Key header.
  installIdempotency(app, services.idempotencyKeys);
  // Usage records of inline calls are written in batches: write what is left before closing.
  app.addHook('onClose', () => services.usageRecords.close());
  // Every limiter above (and the worker's provider limits) counts in `rate_limits`: sweep old windows.
  const sweep = setInterval(() => void clearExpiredCounters(deps.store).catch(() => undefined), 10 * 60_000);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
  await app.register(healthRoutes(deps));
  await app.register(metricsRoutes(deps));
  await app.register(codecRoutes(deps));
  await app.register(workflowRoutes(deps, services.engine, limits));
  await app.register(taskRoutes(deps, services.tasks));
  await app.register(runRoutes(deps, services.reruns, services.runSteps, limits));
  await app.register(runSearchRoutes(deps, services.runSearch));
  await app.register(approvalRoutes(deps, services.approvals));
  await app.register(eventRoutes(deps, services.events));
  await app.register(hookRoutes(services.engine.hooks));
  await app.register(skillRoutes(deps, services.skillCalls, services.teams));
  await app.register(anonymousRoutes(deps, limits));
  // The routes the apps of the catalogue serve themselves (activities/apps/<app>/routes.ts).
  await mountAppRoutes(app, deps, services.usageRecords, limits);
  await app.register(keyRoutes(deps, services.keys));
  await app.register(sessionRoutes(deps, services.sessions));
  await app.register(usageRoutes(deps, services.usage));
  await app.register(embedRoutes(deps, services.embeds));
  await app.register(assetRoutes(deps, services.assets));
  await app.register(chatRoutes(deps, services.chats));
  await app.register(workspaceRoutes(deps, services.workspace));
  await app.register(webRoutes());
  return app;
}
