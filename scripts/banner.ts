/**
 * The lines `npm start` prints once the process runs, by what it runs: the whole service (API
 * and worker), only the API (where it listens; no worker here) or only the worker (its
 * namespace, task queue and Temporal server; nothing listens).
 */

/** What the banner reports, gathered by scripts/main.ts once everything started. */
export interface BannerFacts {
  runApi: boolean;
  runWorker: boolean;
  /** The API's base URL as a client on this host reaches it. */
  apiBase: string;
  /** HOST:PORT the API binds. */
  listen: string;
  /** Whether web/dist holds a built workspace. */
  webBuilt: boolean;
  temporalAddress: string;
  namespace: string;
  taskQueue: string;
  uiUrl: string | undefined;
  /** Where the store lives (the data directory, or that DATABASE_URL is used). */
  data: string;
  /** The development admin key (outside production): its token and the file that keeps it. */
  devKey: { token: string; file: string } | undefined;
  /** A one-time workspace sign-in code (development), shown as a link. */
  signInCode?: string | undefined;
}

function apiLines(f: BannerFacts): string[] {
  const signIn =
    f.webBuilt && f.signInCode
      ? [
          `  Sign in       ${f.apiBase}/#sign-in/${f.signInCode}  (signs the workspace in; works once, soon after start)`,
        ]
      : [];
  return [
    `  Workspace     ${f.apiBase}/${
      f.webBuilt
        ? '  (web workspace; sign in with the API key below)'
        : '  (not built: run npm run web:build, then restart)'
    }`,
    ...signIn,
    `  API           ${f.apiBase}/v1`,
    `  OpenAPI docs  ${f.apiBase}/v1/docs  (document: ${f.apiBase}/v1/openapi.json)`,
    `  Health        ${f.apiBase}/v1/health`,
  ];
}

/** The banner, newline-terminated lines. */
export function startBanner(f: BannerFacts): string {
  const temporal = `  Temporal      ${f.temporalAddress} (namespace ${f.namespace})`;
  const data = `  Data          ${f.data}`;
  const devKey = f.devKey
    ? [
        `  API key       ${f.devKey.token}`,
        `                (development admin key, kept in ${f.devKey.file}; the CLI uses it by default)`,
      ]
    : [];
  let lines: string[];
  if (f.runApi && f.runWorker) {
    lines = [
      'skillflow is running:',
      ...apiLines(f),
      `  Temporal UI   ${f.uiUrl ?? '(external server: set TEMPORAL_UI_URL)'}`,
      temporal,
      data,
      ...devKey,
    ];
  } else if (f.runApi) {
    lines = [
      'skillflow API is running (no worker in this process):',
      `  Listening     ${f.listen}`,
      ...apiLines(f),
      temporal,
      data,
      ...devKey,
    ];
  } else {
    lines = [
      'skillflow worker is running (no API in this process; nothing listens):',
      `  Task queue    ${f.taskQueue}`,
      temporal,
      data,
    ];
  }
  return ['', ...lines, 'Press Ctrl-C to stop.', ''].join('\n');
}
