/**
 * Events (needs the `workflows` scope): `send` resumes your runs whose `wait_for_event` step
 * waits for the event and fits its data, and starts your definitions with `start_when.event` of
 * its name (POST /v1/events). Data that does not fit a triggered definition's run inputs throws a
 * 400 `INVALID_PARAMETER` {@link SkillflowApiError} naming the path and `details.definition_id`;
 * nothing is resumed or started then.
 */
import type { EventSent } from './generated.js';
import type { Transport } from './http.js';

/** `client.events`. */
export interface EventsClient {
  /** Sends an event named `name` (`^[a-z][a-z0-9_.-]{0,127}$`) with `data`. */
  send(name: string, data?: Record<string, unknown>): Promise<EventSent>;
}

/** Creates `client.events`. */
export function createEventsClient(http: Transport): EventsClient {
  return {
    send: async (name, data) =>
      (
        await http.send<EventSent>({
          method: 'POST',
          path: '/v1/events',
          json: { name, ...(data && { data }) },
        })
      ).body,
  };
}
