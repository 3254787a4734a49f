/** `#workflows`: the definitions, and an editor for a new one. */
import { useState } from 'preact/hooks';
import example from '../../../definitions/examples/domain-ideas.yaml?raw';
import { TableScroll } from '../skill/views.js';
import { clock } from '../task/timing.js';
import { createWorkflow, listWorkflows } from '../workflow/api.js';
import type { Diagnostic } from '../workflow/diagnostics.js';
import { Editor } from '../workflow/Editor.js';
import { saveFailure } from '../workflow/save-error.js';
import { useLoad } from '../workflow/use-load.js';
import { useValidation } from '../workflow/use-validation.js';

/** The example definition shipped in definitions/examples, as the starting text (no copy). */
const STARTER = example.replace(/^title: .*$/m, 'title: My workflow');

function NewWorkflow(props: { apiKey: string }) {
  const [source, setSource] = useState(STARTER);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<{ diagnostics: Diagnostic[] | null; message: string } | null>(null);
  const validation = useValidation(props.apiKey, source);
  return (
    <form
      aria-labelledby="new-title"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setRefused(null);
        createWorkflow(props.apiKey, source).then(
          (created) => {
            location.hash = `#workflows/${encodeURIComponent(created.id)}`;
          },
          (err: unknown) => {
            setBusy(false);
            setRefused(saveFailure(err));
          },
        );
      }}
    >
      <h2 id="new-title">New workflow</h2>
      <Editor
        id="new-source"
        label="Definition (YAML)"
        source={source}
        onInput={(s) => {
          setSource(s);
          setRefused(null);
        }}
        validation={validation}
        saveDiagnostics={refused?.diagnostics ?? null}
      />
      <button type="submit" disabled={busy}>
        {busy ? 'Creating…' : 'Create workflow'}
      </button>
      {refused && !refused.diagnostics ? (
        <p role="alert" class="error">
          {refused.message}
        </p>
      ) : null}
    </form>
  );
}

export function WorkflowsPage(props: { apiKey: string }) {
  const list = useLoad(() => listWorkflows(props.apiKey), [props.apiKey]);
  return (
    <section aria-labelledby="workflows-title">
      <h1 id="workflows-title">Workflows</h1>
      {list.state === 'loading' ? <p aria-live="polite">Loading workflows…</p> : null}
      {list.state === 'error' ? (
        <p role="alert" class="error">
          {list.message}
        </p>
      ) : null}
      {list.state === 'ready' && list.value.workflows.length === 0 ? <p>No workflows yet.</p> : null}
      {list.state === 'ready' && list.value.workflows.length > 0 ? (
        <TableScroll label="Workflows">
          <table class="workflows">
            <caption>Your workflow definitions</caption>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Version</th>
                <th scope="col">Starts</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {list.value.workflows.map((w) => (
                <tr key={w.id} data-workflow={w.id}>
                  <th scope="row">
                    <a href={`#workflows/${encodeURIComponent(w.id)}`}>{w.title}</a>
                  </th>
                  <td>{w.version}</td>
                  <td>{w.trigger_type === 'schedule' ? 'on a schedule' : 'by hand'}</td>
                  <td>{clock(w.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      <NewWorkflow apiKey={props.apiKey} />
    </section>
  );
}
