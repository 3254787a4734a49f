import { spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { REPEAT_WINDOW_MS } from './stop-signals.js';

/** A process whose orderly stop takes `stopMs`; prints what happened and exits 0 after it. */
function child(stopMs: number) {
  const module = path.join(import.meta.dirname, 'stop-signals.ts');
  const script = `
    const { onStopSignals } = await import(${JSON.stringify(module)});
    onStopSignals(
      (sig) => { console.log('stop ' + sig); setTimeout(() => { console.log('stopped'); process.exit(0); }, ${stopMs}); },
      () => console.log('forced'),
    );
    console.log('ready');
    setInterval(() => {}, 1000);
  `;
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const ready = (async () => {
    while (!out.includes('ready')) await sleep(20);
  })();
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, ready, exited, output: () => out };
}

describe('onStopSignals', () => {
  it('treats a signal right after the first as the same Ctrl-C: the orderly stop finishes', async () => {
    const c = child(1500);
    await c.ready;
    c.proc.kill('SIGINT');
    await sleep(50);
    c.proc.kill('SIGINT'); // the wrapper's forwarded copy of the same press
    expect(await c.exited).toBe(0);
    expect(c.output()).toBe('ready\nstop SIGINT\nstopped\n');
  });

  it('forces the stop on a second Ctrl-C after the repeat window, and exits 130', async () => {
    const c = child(60_000);
    await c.ready;
    c.proc.kill('SIGTERM');
    await sleep(REPEAT_WINDOW_MS + 200);
    c.proc.kill('SIGINT');
    expect(await c.exited).toBe(130);
    expect(c.output()).toBe('ready\nstop SIGTERM\nforced\n');
  });
});
