/** The messages the definition's runs delivered (chat `workflow:<id>`), newest first; text only. */
import { clock } from '../task/timing.js';
import { deliveredMessages, listRuns } from './api.js';
import { LoadStatus } from '../ui.js';
import { useLoad } from './use-load.js';

export function Messages(props: { auth: string; workflowId: string; refresh: number }) {
  // Before any run has finished there is nothing to read (and the API would answer 404 for a chat
  // no run has written to), so the chat is read only once a run has ended.
  const messages = useLoad(async () => {
    const { runs } = await listRuns(props.auth, props.workflowId);
    const ended = runs.some((r) => r.status !== 'queued' && r.status !== 'running');
    return ended ? deliveredMessages(props.auth, props.workflowId) : [];
  }, [props.auth, props.workflowId, props.refresh]);
  return (
    <section aria-labelledby="messages-title">
      <h2 id="messages-title">Delivered messages</h2>
      <LoadStatus load={messages} loading="Loading messages…" />
      {messages.state === 'ready' && messages.value.length === 0 ? <p>No messages yet.</p> : null}
      {messages.state === 'ready' && messages.value.length > 0 ? (
        <ul class="messages" aria-live="polite">
          {messages.value.map((m) => (
            <li key={m.message_id} class="message" data-task={m.task_id ?? ''}>
              <h3>{m.title}</h3>
              <p class="message-text">{m.message}</p>
              <p class="hint">
                {clock(m.created_at)}
                {m.task_id ? (
                  <>
                    {' · '}
                    <a href={`#tasks/${encodeURIComponent(m.task_id)}`}>run {m.task_id}</a>
                  </>
                ) : null}
                {m.step_id ? ` · step ${m.step_id}` : ''}
                {m.webhook_delivered ? ' · sent to the webhook' : ''}
              </p>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
