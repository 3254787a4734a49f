/**
 * The YAML editor: CodeMirror 6 with YAML highlighting, the live diagnostics underlined at their
 * line and column (markers in the gutter), completion (completion.ts), hover help for skills
 * (skill-hover.ts), and the diagnostics listed below (each one moves the cursor there).
 * Validation runs while typing (use-validation.ts). Escape then Tab leaves the editor.
 */
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { setDiagnostics } from '@codemirror/lint';
import { describeDiagnostic, offsetOf, type Diagnostic } from './diagnostics.js';
import { editorExtensions } from './editor-setup.js';
import { lintDiagnostics } from './lint.js';
import type { Outline } from './completion.js';
import type { Validation } from './use-validation.js';
import './editor.css';

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

/** What the editable area says about itself to assistive technology. */
function contentAttributes(id: string, invalid: boolean) {
  return EditorView.contentAttributes.of({
    id,
    'aria-labelledby': `${id}-label`,
    'aria-describedby': `${id}-status ${id}-keys`,
    // In the tab order explicitly, so a scrolling editor (long lines on a phone) is reachable
    // by keyboard as its scrollable region's focusable content.
    tabindex: '0',
    ...(invalid ? { 'aria-invalid': 'true' } : {}),
  });
}

export function Editor(props: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const attributes = useRef(new Compartment());
  // The latest outline with steps the compiler sent, for completion: kept while the next check
  // runs and while the text does not parse (half-typed YAML often does not).
  const outline = useRef<Outline>({ steps: [] });
  const onInput = useRef(props.onInput);
  // The source last typed or set: a `source` prop equal to it is not a change from outside.
  const echoed = useRef(props.source);
  onInput.current = props.onInput;

  const diagnostics =
    props.saveDiagnostics ?? (props.validation.state === 'invalid' ? props.validation.diagnostics : []);
  const v = props.validation;
  if ((v.state === 'valid' || v.state === 'invalid') && v.outline?.steps.length) outline.current = v.outline;

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: props.source,
        extensions: [
          editorExtensions(() => outline.current),
          attributes.current.of(contentAttributes(props.id, false)),
          EditorView.updateListener.of((u) => {
            if (!u.docChanged) return;
            echoed.current = u.state.doc.toString();
            onInput.current(echoed.current);
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The view is made once; later sources and diagnostics are dispatched to it below.
  }, []);

  // A source set from outside (a loaded or saved definition) replaces the text; the parent's
  // echo of what was typed does not. Checked as soon as the render is committed, so an older
  // render's source never overwrites newer typing.
  useLayoutEffect(() => {
    const editor = view.current;
    if (!editor || props.source === echoed.current) return;
    echoed.current = props.source;
    if (editor.state.doc.toString() !== props.source)
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: props.source } });
  }, [props.source]);

  // Diagnostics and the invalid state reach the view only when they change.
  const shown = JSON.stringify(diagnostics);
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    editor.dispatch(setDiagnostics(editor.state, lintDiagnostics(editor.state.doc.toString(), diagnostics)));
  }, [shown]);
  const invalid = diagnostics.length > 0;
  useEffect(() => {
    view.current?.dispatch({ effects: attributes.current.reconfigure(contentAttributes(props.id, invalid)) });
  }, [invalid, props.id]);

  const goTo = (d: Diagnostic) => {
    const editor = view.current;
    if (!editor) return;
    const at = offsetOf(editor.state.doc.toString(), d.line, d.column);
    editor.dispatch({ selection: { anchor: at }, scrollIntoView: true });
    editor.focus();
  };
  return (
    <div class="editor sf-editor">
      <label id={`${props.id}-label`} onClick={() => view.current?.focus()}>
        {props.label}
      </label>
      <p id={`${props.id}-keys`} class="sf-editor-keys">
        Ctrl+Space suggests what can go here. To leave the editor with the keyboard, press Escape, then Tab.
      </p>
      <div class="sf-editor-body" ref={host} />
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
