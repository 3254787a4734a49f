/** `#workflows`: the definitions, and a new one. */
import { Pending } from './Pending.js';

export function WorkflowsPage(_props: { apiKey: string }) {
  return <Pending title="Workflows" />;
}
