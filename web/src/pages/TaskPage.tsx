/** `#tasks/<task_id>`: live status, steps, result or error, cancel, Temporal UI link. */
import { Pending } from './Pending.js';

export function TaskPage(props: { apiKey: string; taskId: string }) {
  return <Pending title={`Task ${props.taskId}`} />;
}
