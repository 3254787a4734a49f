/** The CodeMirror extensions of the YAML editor. */
import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
} from '@codemirror/autocomplete';
import {
  defaultKeymap,
  history,
  historyKeymap,
  indentWithTab,
  simplifySelection,
  temporarilySetTabFocusMode,
} from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, lintKeymap } from '@codemirror/lint';
import type { Extension } from '@codemirror/state';
import {
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';
import { workflowCompletions, type Outline } from './completion.js';
import { skillHover } from './skill-hover.js';

/**
 * Tab indents; Escape (after closing an open completion list) makes the next Tab move focus out
 * of the editor instead, so keyboard users are never trapped.
 */
const escapeThenTab = keymap.of([
  {
    key: 'Escape',
    run: (view) => {
      simplifySelection(view);
      return temporarilySetTabFocusMode(view);
    },
  },
]);

export function editorExtensions(outline: () => Outline): Extension {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    closeBrackets(),
    yaml(),
    // Token classes (tok-*) styled in editor.css with the design tokens.
    syntaxHighlighting(classHighlighter),
    autocompletion({ override: [workflowCompletions(outline)], icons: false }),
    lintGutter(),
    skillHover,
    keymap.of([...closeBracketsKeymap, ...completionKeymap]),
    escapeThenTab,
    keymap.of([...defaultKeymap, ...historyKeymap, ...lintKeymap, indentWithTab]),
  ];
}
