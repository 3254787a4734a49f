/** `#workflows/<id>`: editor with live validation, save, run, history, schedule, messages. */
import { Pending } from './Pending.js';

export function WorkflowPage(props: { apiKey: string; workflowId: string }) {
  return <Pending title={`Workflow ${props.workflowId}`} />;
}
