/** `#workflows/<id>`: editor with live validation, save as a new version, run, history, schedule, messages. */
import { useState } from 'preact/hooks';
import type { WorkflowDefinition } from '../../../sdk/generated.js';
import { getWorkflow, saveWorkflow } from '../workflow/api.js';
import type { Diagnostic } from '../workflow/diagnostics.js';
import { Editor } from '../workflow/Editor.js';
import { Messages } from '../workflow/Messages.js';
import { RunForm } from '../workflow/RunForm.js';
import { RunHistory } from '../workflow/RunHistory.js';
import { RunProgress } from '../workflow/RunProgress.js';
import { saveFailure } from '../workflow/save-error.js';
import { ScheduleControls } from '../workflow/ScheduleControls.js';
import { useLoad } from '../workflow/use-load.js';
import { useValidation } from '../workflow/use-validation.js';

function Loaded(props: { apiKey: string; initial: WorkflowDefinition }) {
  const [definition, setDefinition] = useState(props.initial);
  const [source, setSource] = useState(props.initial.source);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ diagnostics: Diagnostic[] | null; message: string } | null>(null);
  const [runId, setRunId] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(0);
  const validation = useValidation(props.apiKey, source);
  const changed = source !== definition.source;
  const bump = () => setRefresh((n) => n + 1);
  return (
    <>
      <h1 id="workflow-title">{definition.title}</h1>
      <p class="hint">
        <code>{definition.id}</code> · version <span data-testid="version">{definition.version}</span> ·{' '}
        {definition.trigger_type === 'schedule' ? 'scheduled' : 'started by hand'}
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setSaving(true);
          setSaved(null);
          setRefused(null);
          saveWorkflow(props.apiKey, definition.id, source).then(
            (next) => {
              setSaving(false);
              setDefinition(next);
              setSource(next.source);
              setSaved(`Saved as version ${next.version}.`);
            },
            (err: unknown) => {
              setSaving(false);
              setRefused(saveFailure(err));
            },
          );
        }}
      >
        <Editor
          id="workflow-source"
          label="Definition (YAML)"
          source={source}
          onInput={(s) => {
            setSource(s);
            setRefused(null);
            setSaved(null);
          }}
          validation={validation}
          saveDiagnostics={refused?.diagnostics ?? null}
        />
        <button type="submit" disabled={saving || !changed}>
          {saving ? 'Saving…' : 'Save as a new version'}
        </button>
        {saved ? <p aria-live="polite">{saved}</p> : null}
        {refused && !refused.diagnostics ? (
          <p role="alert" class="error">
            {refused.message}
          </p>
        ) : null}
      </form>
      {definition.schedule ? (
        <ScheduleControls
          apiKey={props.apiKey}
          workflowId={definition.id}
          schedule={definition.schedule}
          onTriggered={bump}
        />
      ) : (
        <RunForm
          key={definition.version}
          apiKey={props.apiKey}
          definition={definition}
          onStarted={(id) => {
            setRunId(id);
            bump();
          }}
        />
      )}
      {runId ? <RunProgress key={runId} apiKey={props.apiKey} taskId={runId} onFinished={bump} /> : null}
      <RunHistory apiKey={props.apiKey} workflowId={definition.id} refresh={refresh} />
      <Messages apiKey={props.apiKey} workflowId={definition.id} refresh={refresh} />
    </>
  );
}

export function WorkflowPage(props: { apiKey: string; workflowId: string }) {
  const loaded = useLoad(() => getWorkflow(props.apiKey, props.workflowId), [props.apiKey, props.workflowId]);
  return (
    <section aria-labelledby="workflow-title" class="workflow">
      {loaded.state === 'loading' ? <p aria-live="polite">Loading the workflow…</p> : null}
      {loaded.state === 'error' ? (
        <>
          <h1 id="workflow-title">Workflow {props.workflowId}</h1>
          <p role="alert" class="error">
            {loaded.message}
          </p>
        </>
      ) : null}
      {loaded.state === 'ready' ? (
        <Loaded key={props.workflowId} apiKey={props.apiKey} initial={loaded.value} />
      ) : null}
    </section>
  );
}
