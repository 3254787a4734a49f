/**
 * `POST /v1/events`: the caller's event resumes the caller's runs waiting for it
 * (`wait_for_event`) and starts the caller's definitions it triggers (`start_when.event`). Needs
 * the `workflows` scope and the scopes of what it starts; it never reaches another owner's runs.
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EVENT_NAME_PATTERN } from '../../definitions/schema/definition-schema.js';
import { authenticate, BEARER, principalOf } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { errorResponses } from '../schemas.js';
import type { EventsService } from '../services/events.js';

export const EventBody = z
  .object({
    name: z.string().regex(EVENT_NAME_PATTERN, `must match ${EVENT_NAME_PATTERN.source}`),
    data: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'The event data: a JSON object. `wait_for_event` steps compare their `match` fields with it; a triggered definition takes the fields it declares as run inputs.',
      ),
  })
  .strict();

export const EventAnswerSchema = z.object({
  resumed: z.number().int().describe('How many of your waiting runs took the event.'),
  started: z
    .number()
    .int()
    .describe('How many runs it started (definitions with `start_when.event` of its name).'),
});

export const eventRoutes =
  (deps: ApiDeps, events: EventsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', authenticate(deps.store));
    app.post(
      '/v1/events',
      {
        // The whole event; the fields a triggered definition takes are checked again as its run
        // inputs, against their own limit (services/run-inputs.ts).
        bodyLimit: 80 * 1024,
        // The same event sent again with the same Idempotency-Key resumes and starts nothing.
        config: { idempotent: true },
        schema: {
          tags: ['events'],
          security: BEARER,
          summary: 'Send an event',
          description:
            "Resumes your runs whose `wait_for_event` step waits for this name and matches the data, and starts your definitions with `start_when.event` of this name. Events are not buffered: only runs already waiting take it. Data that does not fit a triggered definition's run inputs is 400 with the path and `details.definition_id`; nothing is resumed or started then.",
          body: EventBody,
          response: { 200: EventAnswerSchema, ...errorResponses(400, 401, 403, 413, 422, 429) },
        },
      },
      async (req) => events.send(principalOf(req), { name: req.body.name, data: req.body.data ?? {} }),
    );
  };
