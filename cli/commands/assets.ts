/**
 * `skillflow assets get <embed_id> [--asset original|schematic|parts] [--design n] -o <file>`:
 * asks for a fresh download link (POST /v1/assets/download-links) and writes its bytes to the
 * file, or to stdout with `-o -`. An existing file is kept unless `--force` is given.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError, err, EXIT } from '../output.js';

const ASSETS = ['original', 'schematic', 'parts'] as const;

/** Registers `assets`. */
export function registerAssets(
  program: Command,
  context: () => CliContext,
  run: (fn: () => Promise<number>) => Promise<void>,
): void {
  const cmd = program.command('assets').description('Download generated assets of your embeds');

  cmd
    .command('get <embed_id>')
    .description('Download one asset of an embed through a short-lived link')
    .option('--asset <name>', 'original (the raw output, JSON), schematic (SVG) or parts (JSON)', 'original')
    .option('--design <n>', 'which design of a get_power_design call, from 0', '0')
    .requiredOption('-o, --output <file>', 'where to write the file; - for stdout')
    .option('--force', 'overwrite an existing file')
    .action((embedId: string, flags: { asset: string; design: string; output: string; force?: boolean }) =>
      run(async () => {
        const asset = ASSETS.find((a) => a === flags.asset);
        if (!asset) throw new CliError(`--asset must be one of ${ASSETS.join(', ')}.`, EXIT.USAGE, 'USAGE');
        const design = Number(flags.design);
        if (!Number.isInteger(design) || design < 0 || design > 4)
          throw new CliError('--design must be an integer from 0 to 4.', EXIT.USAGE, 'USAGE');
        const { existsSync } = await import('node:fs');
        if (flags.output !== '-' && !flags.force && existsSync(flags.output))
          throw new CliError('The output file exists; pass --force to overwrite it.', EXIT.USAGE, 'USAGE');
        const bytes = await context().client.assets.download({ embedId, asset, design });
        if (flags.output === '-') {
          process.stdout.write(bytes);
          return EXIT.OK;
        }
        const { writeFile } = await import('node:fs/promises');
        await writeFile(flags.output, bytes, { flag: flags.force ? 'w' : 'wx' });
        err(`wrote ${bytes.length} bytes`);
        return EXIT.OK;
      }),
    );
}
