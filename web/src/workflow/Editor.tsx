/**
 * The YAML editor: a labelled textarea with a line-number gutter that marks lines with a
 * diagnostic, and the diagnostics listed below at their line and column (each one moves the
 * caret there). Validation runs while typing (use-validation.ts).
 */
import { useRef } from 'preact/hooks';
import { byLine, describeDiagnostic, lineCount, offsetOf, type Diagnostic } from './diagnostics.js';
import type { Validation } from './use-validation.js';

interface Props {
  id: string;
  label: string;
  source: string;
  onInput: (source: string) => void;
  validation: Validation;
  /** Diagnostics of a refused save (422), shown like the live ones. */
  saveDiagnostics?: Diagnostic[] | null;
}

function status(v: Validation): string {
  switch (v.state) {
    case 'idle':
      return '';
    case 'checking':
      return 'Checking…';
    case 'valid':
      return v.steps === null ? 'Valid.' : `Valid: ${v.steps} step${v.steps === 1 ? '' : 's'}.`;
    case 'invalid':
      return `${v.diagnostics.length} problem${v.diagnostics.length === 1 ? '' : 's'}.`;
    case 'error':
      return `Could not check: ${v.message}`;
  }
}

export function Editor(props: Props) {
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLPreElement>(null);
  const diagnostics =
    props.saveDiagnostics ?? (props.validation.state === 'invalid' ? props.validation.diagnostics : []);
  const marked = byLine(diagnostics);
  const lines = lineCount(props.source);
  const numbers = Array.from({ length: lines }, (_, i) => `${marked.has(i + 1) ? '●' : ' '}${i + 1}`).join(
    '\n',
  );
  const goTo = (d: Diagnostic) => {
    const el = area.current;
    if (!el) return;
    const at = offsetOf(props.source, d.line, d.column);
    el.focus();
    el.setSelectionRange(at, at);
  };
  return (
    <div class="editor">
      <label for={props.id}>{props.label}</label>
      <div class="editor-body">
        <pre class="gutter" aria-hidden="true" ref={gutter}>
          {numbers}
        </pre>
        <textarea
          id={props.id}
          ref={area}
          rows={Math.min(Math.max(lines + 1, 12), 30)}
          spellcheck={false}
          autocapitalize="off"
          aria-describedby={`${props.id}-status`}
          aria-invalid={diagnostics.length > 0 ? 'true' : undefined}
          value={props.source}
          onInput={(e) => props.onInput(e.currentTarget.value)}
          onScroll={(e) => {
            if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
          }}
        />
      </div>
      <p
        id={`${props.id}-status`}
        class="validation-status"
        aria-live="polite"
        data-state={props.validation.state}
      >
        {status(props.validation)}
      </p>
      {diagnostics.length > 0 ? (
        <ul class="diagnostics" aria-label="Problems">
          {diagnostics.map((d, i) => (
            <li key={i} data-line={d.line} data-column={d.column} data-code={d.code}>
              <button type="button" class="link" onClick={() => goTo(d)}>
                {describeDiagnostic(d)}
              </button>
              {d.path ? <span class="path"> ({d.path})</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
