/**
 * `#workflows/<id>`: the steps as a graph, editor with live validation, save as a new version, run, history, schedule,
 * webhook hook, messages.
 */
import { useState } from 'preact/hooks';
import type { WorkflowDefinition } from '../../../sdk/generated.js';
import { getWorkflow, saveWorkflow } from '../workflow/api.js';
import { Alert } from '../ui.js';
import { DefinitionForm } from '../workflow/DefinitionForm.js';
import { takeSecret } from '../workflow/fresh-secret.js';
import { HookPanel } from '../workflow/HookPanel.js';
import { Messages } from '../workflow/Messages.js';
import { PlanGraph } from '../workflow/PlanGraph.js';
import { RunForm } from '../workflow/RunForm.js';
import { RunHistory } from '../workflow/RunHistory.js';
import { RunProgress } from '../workflow/RunProgress.js';
import { ScheduleControls } from '../workflow/ScheduleControls.js';
import { useLoad } from '../workflow/use-load.js';

function Loaded(props: { auth: string; initial: WorkflowDefinition }) {
  const [definition, setDefinition] = useState(props.initial);
  const [secret, setSecret] = useState(() => takeSecret(props.initial.id));
  const [runId, setRunId] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(0);
  const bump = () => setRefresh((n) => n + 1);
  return (
    <>
      <h1 id="workflow-title">{definition.title}</h1>
      <p class="hint">
        <code>{definition.id}</code> · version <span data-testid="version">{definition.version}</span> ·{' '}
        {definition.trigger_type === 'schedule'
          ? 'scheduled'
          : definition.trigger_type === 'event'
            ? 'started by an event'
            : definition.trigger_type === 'webhook'
              ? 'started by a webhook'
              : 'started by hand'}
      </p>
      <section class="workflow-graph" aria-labelledby="workflow-graph-title">
        <h2 id="workflow-graph-title">Steps</h2>
        <PlanGraph graph={definition.graph} label="Steps of this workflow" />
      </section>
      <DefinitionForm
        auth={props.auth}
        id="workflow-source"
        initialSource={definition.source}
        baseline={definition.source}
        submitLabel="Save as a new version"
        busyLabel="Saving…"
        submit={(source) => saveWorkflow(props.auth, definition.id, source)}
        onDone={(next) => {
          setDefinition(next);
          if (next.hook?.signing_secret) setSecret(next.hook.signing_secret);
          return `Saved as version ${next.version}.`;
        }}
      />
      {definition.hook ? (
        <HookPanel
          key={`${definition.hook.id}/${secret ?? ''}`}
          auth={props.auth}
          workflowId={definition.id}
          hook={definition.hook}
          secret={secret}
        />
      ) : null}
      {definition.schedule ? (
        <ScheduleControls
          auth={props.auth}
          workflowId={definition.id}
          schedule={definition.schedule}
          onTriggered={bump}
        />
      ) : (
        <RunForm
          key={definition.version}
          auth={props.auth}
          definition={definition}
          onStarted={(id) => {
            setRunId(id);
            bump();
          }}
        />
      )}
      {runId ? (
        <RunProgress
          key={runId}
          auth={props.auth}
          taskId={runId}
          graph={definition.graph}
          onFinished={bump}
        />
      ) : null}
      <RunHistory auth={props.auth} workflowId={definition.id} refresh={refresh} />
      <Messages auth={props.auth} workflowId={definition.id} refresh={refresh} />
    </>
  );
}

export function WorkflowPage(props: { auth: string; workflowId: string }) {
  const loaded = useLoad(() => getWorkflow(props.auth, props.workflowId), [props.auth, props.workflowId]);
  return (
    <section aria-labelledby="workflow-title" class="workflow">
      {loaded.state === 'loading' ? <p aria-live="polite">Loading the workflow…</p> : null}
      {loaded.state === 'error' ? (
        <>
          <h1 id="workflow-title">Workflow {props.workflowId}</h1>
          <Alert message={loaded.message} />
        </>
      ) : null}
      {loaded.state === 'ready' ? (
        <Loaded key={props.workflowId} auth={props.auth} initial={loaded.value} />
      ) : null}
    </section>
  );
}
