/**
 * `skillflow encyclopedia search <query>` and `skillflow encyclopedia summary <title>`: the
 * /v1/encyclopedia routes. `--json` prints exactly the REST body.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError, EXIT, out, printJson } from '../output.js';

/** Registers `encyclopedia`. */
export function registerEncyclopedia(
  program: Command,
  context: () => CliContext,
  run: (fn: () => Promise<number>) => Promise<void>,
): void {
  const cmd = program.command('encyclopedia').description('Encyclopedia title search and article summaries');

  cmd
    .command('search <query>')
    .description('Ordered titles, best match first; disambiguation pages marked')
    .option('--language <code>', 'language code, e.g. en, de-DE', 'en')
    .option('--limit <n>', 'titles to return, 1 to 10', '5')
    .option('--json', 'print the REST body as JSON')
    .action((query: string, flags: { language: string; limit: string; json?: boolean }) =>
      run(async () => {
        const limit = Number(flags.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 10)
          throw new CliError('--limit must be an integer from 1 to 10.', EXIT.USAGE, 'USAGE');
        const res = await context().client.encyclopedia.search({ query, language: flags.language, limit });
        if (flags.json) printJson(res);
        else if (res.results.length === 0) out('no matching titles');
        else
          for (const r of res.results)
            out(`${r.title}${r.disambiguation ? '  (disambiguation)' : ''}  ${r.url}`);
        return EXIT.OK;
      }),
    );

  cmd
    .command('summary <title>')
    .description('Selected public metadata of one article')
    .option('--language <code>', 'language code, e.g. en, de-DE', 'en')
    .option('--json', 'print the REST body as JSON')
    .action((title: string, flags: { language: string; json?: boolean }) =>
      run(async () => {
        const res = await context().client.encyclopedia.summary({ title, language: flags.language });
        if (flags.json) printJson(res);
        else {
          out(`${res.title}${res.disambiguation ? '  (disambiguation page)' : ''}`);
          if (res.description) out(res.description);
          if (res.extract) out(res.extract);
          out(res.url);
        }
        return EXIT.OK;
      }),
    );
}
