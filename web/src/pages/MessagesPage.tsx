/**
 * `#messages`: every chat your runs delivered to (a step's `chat_id`, or a workflow's own chat
 * `workflow:<id>`), most recently active first; `#messages/<chat id>`: one chat's messages,
 * opened in this browser with its chat key (those sealed to other devices only say so).
 */
import { dateTime } from '../task/timing.js';
import { TableScroll } from '../skill/views.js';
import { Empty, HeadRow, LoadStatus } from '../ui.js';
import { listChats } from '../workflow/api.js';
import { ChatMessages } from '../workflow/Messages.js';
import { useLoad } from '../workflow/use-load.js';

const chatHash = (chatId: string) => `#messages/${encodeURIComponent(chatId)}`;

/** A chat's name in words: a workflow's own chat names its workflow. */
function chatName(chatId: string): string {
  return chatId.startsWith('workflow:') ? `Workflow ${chatId.slice('workflow:'.length)}` : chatId;
}

export function MessagesPage(props: { auth: string }) {
  const list = useLoad(() => listChats(props.auth), [props.auth]);
  return (
    <section aria-labelledby="messages-page-title">
      <h1 id="messages-page-title">Messages</h1>
      <LoadStatus load={list} loading="Loading chats…" />
      {list.state === 'ready' && list.value.chats.length === 0 ? (
        <Empty title="No messages yet.">
          A workflow's send_chat_message step delivers here; run one from Workflows.
        </Empty>
      ) : null}
      {list.state === 'ready' && list.value.chats.length > 0 ? (
        <TableScroll label="Chats">
          <table class="chats">
            <caption>Your chats, most recently active first</caption>
            <HeadRow columns={['Chat', 'Messages', 'Last message']} />
            <tbody>
              {list.value.chats.map((c) => (
                <tr key={c.chat_id} data-chat={c.chat_id}>
                  <th scope="row">
                    <a href={chatHash(c.chat_id)}>{chatName(c.chat_id)}</a>
                  </th>
                  <td class="num">{c.messages}</td>
                  <td>{c.last_message_at ? dateTime(c.last_message_at) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </section>
  );
}

export function ChatPage(props: { auth: string; chatId: string }) {
  const workflow = props.chatId.startsWith('workflow:') ? props.chatId.slice('workflow:'.length) : null;
  return (
    <>
      <p>
        <a href="#messages">All chats</a>
        {workflow ? (
          <>
            {' · '}
            <a href={`#workflows/${encodeURIComponent(workflow)}`}>the workflow</a>
          </>
        ) : null}
      </p>
      <ChatMessages
        auth={props.auth}
        chatId={props.chatId}
        headingId="chat-title"
        heading={<h1 id="chat-title">{chatName(props.chatId)}</h1>}
      />
    </>
  );
}
