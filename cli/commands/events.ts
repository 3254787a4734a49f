/**
 * `skillflow events send <name> [--data <json>]`: sends an event; prints how many waiting runs it
 * resumed and how many runs it started.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { parseJsonInput } from '../input.js';
import { EXIT, out, printJson } from '../output.js';

/** Registers `events`. */
export function registerEvents(
  program: Command,
  context: () => CliContext,
  run: (fn: () => Promise<number>) => Promise<void>,
): void {
  const events = program.command('events').description('Send events to your waiting runs and event triggers');
  events
    .command('send <name>')
    .description(
      'Send an event: resumes runs waiting for it (wait_for_event), starts definitions it triggers',
    )
    .option('--data <json>', 'the event data as a JSON object, or @file.json')
    .option('--json', 'print the JSON answer')
    .action((name: string, flags: { data?: string; json?: boolean }) =>
      run(async () => {
        const data = flags.data ? parseJsonInput(flags.data, '--data') : undefined;
        const res = await context().client.events.send(name, data);
        if (flags.json) printJson(res);
        else out(`${name}: resumed ${res.resumed} waiting run(s), started ${res.started} run(s)`);
        return EXIT.OK;
      }),
    );
}
