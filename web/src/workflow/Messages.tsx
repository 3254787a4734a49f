/**
 * Delivered chat messages, newest first; text only. They arrive sealed to the owner's chat keys
 * and are opened here with this browser's key (chat-key-store.ts), which the view registers
 * first so the next runs are sealed to it. `ChatMessages` reads one chat; `Messages` is the
 * workflow page's view of the chat its runs deliver to (`workflow:<id>`).
 */
import type { ComponentChildren } from 'preact';
import { clock } from '../task/timing.js';
import { deliveredMessages, listRuns } from './api.js';
import { deviceChatKey, registerDeviceChatKey } from './chat-key-store.js';
import { LoadStatus } from '../ui.js';
import { useLoad } from './use-load.js';

/** The chat's messages, opened with this browser's key (after registering it). */
async function openedMessages(auth: string, chatId: string) {
  // Without a registered key the next runs' messages are not sealed to this browser; the
  // messages already delivered are still listed.
  await registerDeviceChatKey(auth).catch(() => undefined);
  const sealed = await deliveredMessages(auth, chatId);
  if (sealed.length === 0) return [];
  const { generateChatKeyPair, openChatMessages } = await import('../../../sdk/chat-keys.js');
  // No IndexedDB (a private window, say): a key of the moment opens nothing sealed to the owner.
  const key = await deviceChatKey().catch(() => generateChatKeyPair());
  return openChatMessages(sealed, key.privateKey);
}

type Opened = Awaited<ReturnType<typeof openedMessages>>;

function MessageList(props: { messages: Opened }) {
  return (
    <ul class="messages" aria-live="polite">
      {props.messages.map((m) => (
        <li key={m.message_id} class="message" data-task={m.task_id ?? ''}>
          {m.readable ? (
            <>
              <h3>{m.title}</h3>
              <p class="message-text">{m.message}</p>
            </>
          ) : (
            <p class="message-text">
              Sealed to another device's chat key (or delivered before this browser's key was registered):
              read it there, for example with skillflow chats read.
            </p>
          )}
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
  );
}

/** One chat's messages, under a heading the caller gives. */
export function ChatMessages(props: {
  auth: string;
  chatId: string;
  refresh?: number;
  heading: ComponentChildren;
  headingId: string;
}) {
  const messages = useLoad(
    () => openedMessages(props.auth, props.chatId),
    [props.auth, props.chatId, props.refresh],
  );
  return (
    <section aria-labelledby={props.headingId}>
      {props.heading}
      <LoadStatus load={messages} loading="Loading messages…" />
      {messages.state === 'ready' && messages.value.length === 0 ? <p>No messages yet.</p> : null}
      {messages.state === 'ready' && messages.value.length > 0 ? (
        <MessageList messages={messages.value} />
      ) : null}
    </section>
  );
}

/** The messages the definition's runs delivered (chat `workflow:<id>`). */
export function Messages(props: { auth: string; workflowId: string; refresh: number }) {
  // Before any run has finished there is nothing to read (and the API would answer 404 for a chat
  // no run has written to, which the browser logs), so the chat is read once a run has ended.
  const ended = useLoad(async () => {
    await registerDeviceChatKey(props.auth).catch(() => undefined);
    const { runs } = await listRuns(props.auth, props.workflowId);
    return runs.some((r) => r.status !== 'queued' && r.status !== 'running');
  }, [props.auth, props.workflowId, props.refresh]);
  const heading = <h2 id="messages-title">Delivered messages</h2>;
  if (ended.state !== 'ready' || !ended.value)
    return (
      <section aria-labelledby="messages-title">
        {heading}
        <LoadStatus load={ended} loading="Loading messages…" />
        {ended.state === 'ready' ? <p>No messages yet.</p> : null}
      </section>
    );
  return (
    <ChatMessages
      auth={props.auth}
      chatId={`workflow:${props.workflowId}`}
      refresh={props.refresh}
      heading={heading}
      headingId="messages-title"
    />
  );
}
