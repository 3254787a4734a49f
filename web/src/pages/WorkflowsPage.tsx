/** `#workflows`: the definitions, and an editor for a new one. */
import example from '../../../definitions/examples/domain-ideas.yaml?raw';
import { TableScroll } from '../skill/views.js';
import { clock } from '../task/timing.js';
import { createWorkflow, listWorkflows } from '../workflow/api.js';
import { Empty, LoadStatus, HeadRow } from '../ui.js';
import { DefinitionForm } from '../workflow/DefinitionForm.js';
import { rememberSecret } from '../workflow/fresh-secret.js';
import { useLoad } from '../workflow/use-load.js';

/** The example definition shipped in definitions/examples, as the starting text (no copy). */
const STARTER = example.replace(/^title: .*$/m, 'title: My workflow');

function NewWorkflow(props: { auth: string }) {
  return (
    <DefinitionForm
      auth={props.auth}
      id="new-source"
      initialSource={STARTER}
      submitLabel="Create workflow"
      busyLabel="Creating…"
      submit={(source) => createWorkflow(props.auth, source)}
      onDone={(created) => {
        if (created.hook?.signing_secret) rememberSecret(created.id, created.hook.signing_secret);
        location.hash = `#workflows/${encodeURIComponent(created.id)}`;
        return null;
      }}
    >
      <h2>New workflow</h2>
    </DefinitionForm>
  );
}

export function WorkflowsPage(props: { auth: string }) {
  const list = useLoad(() => listWorkflows(props.auth), [props.auth]);
  return (
    <section aria-labelledby="workflows-title">
      <h1 id="workflows-title">Workflows</h1>
      <LoadStatus load={list} loading="Loading workflows…" />
      {list.state === 'ready' && list.value.workflows.length === 0 ? (
        <Empty title="No workflows yet.">Write your first one in the editor below.</Empty>
      ) : null}
      {list.state === 'ready' && list.value.workflows.length > 0 ? (
        <TableScroll label="Workflows">
          <table class="workflows">
            <caption>Your workflow definitions</caption>
            <HeadRow columns={['Title', 'Version', 'Starts', 'Updated']} />
            <tbody>
              {list.value.workflows.map((w) => (
                <tr key={w.id} data-workflow={w.id}>
                  <th scope="row">
                    <a href={`#workflows/${encodeURIComponent(w.id)}`}>{w.title}</a>
                  </th>
                  <td>{w.version}</td>
                  <td>
                    {w.trigger_type === 'schedule'
                      ? 'on a schedule'
                      : w.trigger_type === 'event'
                        ? 'by an event'
                        : w.trigger_type === 'webhook'
                          ? 'by a webhook'
                          : 'by hand'}
                  </td>
                  <td>{clock(w.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      <NewWorkflow auth={props.auth} />
    </section>
  );
}
