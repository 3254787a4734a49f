/**
 * The skillflow command-line client (`npx skillflow ...`, `npm run skillflow -- ...`), built on
 * the SDK. Commands: `apps`, `workflows`, `tasks`, `runs`, `keys`, `encyclopedia`, `assets`; see docs/cli-and-sdk.md for flags
 * and exit codes.
 */
import { Command, CommanderError } from 'commander';
import { registerApps } from './commands/apps.js';
import { registerAssets } from './commands/assets.js';
import { registerChats } from './commands/chats.js';
import { registerEncyclopedia } from './commands/encyclopedia.js';
import { registerEvents } from './commands/events.js';
import { registerKeys } from './commands/keys.js';
import { registerRuns } from './commands/runs.js';
import { registerTasks } from './commands/tasks.js';
import { registerWorkflows } from './commands/workflows.js';
import { resolveContext, type CliContext, type GlobalOptions } from './context.js';
import { EXIT, report } from './output.js';

/** Builds the program; `exit` receives every command's exit code. */
export function buildProgram(exit: (code: number) => void = (code) => (process.exitCode = code)): Command {
  const program = new Command('skillflow')
    .description('Command-line client of the skillflow API')
    .version('0.1.0')
    .option('--url <url>', 'API origin (env SKILLFLOW_URL; default http://127.0.0.1:8080)')
    .option('--token <token>', 'API token (env SKILLFLOW_API_KEY; default: the dev key of npm start)')
    .showHelpAfterError()
    .exitOverride();

  const context = (): CliContext => resolveContext(program.opts<GlobalOptions>());
  const run = async (fn: () => Promise<number>): Promise<void> => {
    try {
      exit(await fn());
    } catch (e) {
      exit(
        report(e, (apiErr) =>
          apiErr.status === 401
            ? 'pass --token, set SKILLFLOW_API_KEY, or start the stack with npm start (dev key)'
            : undefined,
        ),
      );
    }
  };
  registerApps(program, context, run);
  registerWorkflows(program, context, run);
  registerTasks(program, context, run);
  registerRuns(program, context, run);
  registerEvents(program, context, run);
  registerKeys(program, context, run);
  registerChats(program, context, run);
  registerEncyclopedia(program, context, run);
  registerAssets(program, context, run);
  return program;
}

/** Runs the CLI with `argv` (as process.argv). */
export async function main(argv: string[] = process.argv): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      process.exitCode = e.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
      return;
    }
    process.exitCode = report(e);
  }
}

await main();
