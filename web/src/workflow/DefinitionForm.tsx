/**
 * A definition's YAML in the editor with live validation, and a submit button that creates or
 * saves it. A refused submit (422 INVALID_DEFINITION) shows its diagnostics in the editor; any
 * other failure its message.
 */
import { useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import type { WorkflowDefinition } from '../../../sdk/generated.js';
import { Alert } from '../ui.js';
import type { Diagnostic } from './diagnostics.js';
import { Editor } from './Editor.js';
import { saveFailure } from './save-error.js';
import { useValidation } from './use-validation.js';

interface Props {
  auth: string;
  id: string;
  initialSource: string;
  /** Submitting is offered only when the text differs from this (the saved source). */
  baseline?: string;
  submitLabel: string;
  busyLabel: string;
  submit: (source: string) => Promise<WorkflowDefinition>;
  /** Called with the created or saved definition; returns a line to announce, if any. */
  onDone: (definition: WorkflowDefinition) => string | null;
  children?: ComponentChildren;
}

export function DefinitionForm(props: Props) {
  const [source, setSource] = useState(props.initialSource);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ diagnostics: Diagnostic[] | null; message: string } | null>(null);
  const validation = useValidation(props.auth, source);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setDone(null);
        setRefused(null);
        props.submit(source).then(
          (definition) => {
            setBusy(false);
            setSource(definition.source);
            setDone(props.onDone(definition));
          },
          (err: unknown) => {
            setBusy(false);
            setRefused(saveFailure(err));
          },
        );
      }}
    >
      {props.children}
      <Editor
        id={props.id}
        label="Definition (YAML)"
        source={source}
        onInput={(s) => {
          setSource(s);
          setRefused(null);
          setDone(null);
        }}
        validation={validation}
        saveDiagnostics={refused?.diagnostics ?? null}
      />
      <button type="submit" disabled={busy || source === props.baseline}>
        {busy ? props.busyLabel : props.submitLabel}
      </button>
      {done ? <p aria-live="polite">{done}</p> : null}
      <Alert message={refused && !refused.diagnostics ? refused.message : null} />
    </form>
  );
}
