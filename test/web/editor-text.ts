/**
 * Replaces the text of a CodeMirror editor the way a paste does: the editor handles the paste
 * event itself. (Playwright's `fill()` goes through the browser's own editing commands, which may
 * add style attributes to the editable area, refused by the workspace's CSP.)
 */
import type { Locator } from 'playwright-core';

export async function setEditorText(editor: Locator, text: string): Promise<void> {
  await editor.focus();
  await editor.press('Control+a');
  await editor.evaluate((el, value) => {
    if (!el.closest('.cm-editor')) throw new Error('not a CodeMirror editor');
    const data = new DataTransfer();
    data.setData('text/plain', value);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}
