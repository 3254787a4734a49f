/**
 * Appends a child process's stdout and stderr to one log file. The file is closed only when
 * both streams have ended (the child's 'close' event): piping two streams into one file with
 * the default `end: true` closes it when the first ends, and a late write of the other then
 * throws "write after end" in the parent.
 */
import type { ChildProcessByStdio } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';

export function appendOutputToLog(
  child: ChildProcessByStdio<null, Readable, Readable>,
  logFile: string,
): void {
  const log = createWriteStream(logFile, { flags: 'a' });
  // A log that cannot be written must not take the parent down; the child keeps running.
  log.on('error', () => undefined);
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  child.once('close', () => log.end());
}
