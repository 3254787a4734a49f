/**
 * `workflows validate <file>`: compiles the file locally with the same compiler the API uses,
 * against the live skill catalog when the API can describe it, else offline against this
 * checkout's catalog (with a note on stderr saying so and why). `--server` asks the API instead.
 */
import {
  compileDefinition,
  formatDiagnostics,
  type Diagnostic,
  type SkillCatalog,
} from '../definitions/index.js';
import { SkillflowApiError, SkillflowClientError } from '../sdk/index.js';
import type { CliContext } from './context.js';
import { definitionFormat, readDefinitionFile } from './input.js';
import { EXIT, err, out, printJson } from './output.js';
import { fetchLiveCatalog, loadLocalCatalog } from './live-catalog.js';

/** Options of `workflows validate`. */
export interface ValidateOptions {
  offline?: boolean;
  /** Let the API compile it (POST /v1/workflows/validate): its exact messages, no local compile. */
  server?: boolean;
  json?: boolean;
}

/** Which catalog was used. */
export interface CatalogChoice {
  catalog: SkillCatalog;
  source: 'live' | 'local';
  /** Why the live catalog was not used. */
  note?: string;
}

function whyNotLive(e: unknown, ctx: CliContext): string {
  if (e instanceof SkillflowClientError) return `the API at ${ctx.url} is not reachable`;
  if (e instanceof SkillflowApiError)
    return `the API answered ${e.code} (HTTP ${e.status}) while describing its skills`;
  return `the API's skill catalog could not be read (${e instanceof Error ? e.message : String(e)})`;
}

/** Picks the live catalog, falling back to the local one. */
export async function chooseCatalog(ctx: CliContext, offline = false): Promise<CatalogChoice> {
  if (offline) return { catalog: await loadLocalCatalog(), source: 'local', note: '--offline' };
  if (!ctx.token) {
    return {
      catalog: await loadLocalCatalog(),
      source: 'local',
      note: 'no API token (--token, SKILLFLOW_API_KEY or the dev key file)',
    };
  }
  try {
    const { catalog } = await fetchLiveCatalog(ctx.client);
    return { catalog, source: 'live' };
  } catch (e) {
    return { catalog: await loadLocalCatalog(), source: 'local', note: whyNotLive(e, ctx) };
  }
}

/** Compiles one file; returns its diagnostics. */
export function validateSource(file: string, text: string, catalog: SkillCatalog): Diagnostic[] {
  const res = compileDefinition(text, { catalog, fileName: file, format: definitionFormat(file, text) });
  return res.ok ? [] : res.diagnostics;
}

/** Runs the command; returns the exit code. */
export async function runValidate(ctx: CliContext, file: string, opts: ValidateOptions): Promise<number> {
  const text = readDefinitionFile(file);
  let diagnostics: Diagnostic[];
  let source: CatalogChoice['source'] | 'server';
  if (opts.server) {
    const res = await ctx.client.workflows.validate(text, { format: definitionFormat(file, text) });
    diagnostics = res.diagnostics;
    source = 'server';
  } else {
    const choice = await chooseCatalog(ctx, opts.offline);
    if (choice.source === 'local') {
      err(
        `note: validated offline against this checkout's skill catalog (activities/apps): ${choice.note ?? ''}`,
      );
    }
    diagnostics = validateSource(file, text, choice.catalog);
    source = choice.source;
  }
  if (opts.json) {
    printJson({ file, valid: diagnostics.length === 0, catalog: source, diagnostics });
  } else if (diagnostics.length === 0) {
    out('ok');
  } else {
    for (const line of formatDiagnostics(file, diagnostics)) out(line);
  }
  return diagnostics.length === 0 ? EXIT.OK : EXIT.FAILURE;
}
