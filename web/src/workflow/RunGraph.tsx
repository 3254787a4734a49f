/**
 * A run on its definition's graph: every node in the state of its step, updated as the task page
 * polls; selecting a node (click, Enter or Space) shows that step's details, input and output.
 */
import { useState } from 'preact/hooks';
import type { Task } from '../../../sdk/generated.js';
import { getWorkflow } from './api.js';
import { PlanGraph } from './PlanGraph.js';
import { StepDetail } from './StepDetail.js';
import { useLoad } from './use-load.js';

/** The run's graph, from its definition (the run's own version when it is still the current one). */
export function RunGraph(props: { auth: string; task: Task; definitionId: string }) {
  const definition = useLoad(
    () => getWorkflow(props.auth, props.definitionId),
    [props.auth, props.definitionId],
  );
  const [selected, setSelected] = useState<string | null>(null);
  if (definition.state !== 'ready') return null;
  const def = definition.value;
  const ran = props.task.definition?.version ?? null;
  const step = props.task.steps.find((s) => s.id === selected) ?? null;
  return (
    <section class="run-graph" aria-labelledby="run-graph-title">
      <h3 id="run-graph-title">Graph of this run</h3>
      {ran !== null && ran !== def.version ? (
        <p class="hint">
          Drawn from version {def.version} of the workflow; this run ran version {ran}.
        </p>
      ) : null}
      <p class="hint">Select a step to see its details, input and output.</p>
      <PlanGraph
        graph={def.graph}
        label="Steps of this run"
        steps={props.task.steps}
        selected={selected}
        onSelect={(id) => setSelected((now) => (now === id ? null : id))}
      />
      {step ? <StepDetail auth={props.auth} task={props.task} step={step} graph={def.graph} /> : null}
    </section>
  );
}
