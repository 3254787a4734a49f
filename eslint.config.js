// @ts-check
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

/**
 * Workflow code runs in Temporal's deterministic sandbox. Mirror the SDK bundler's
 * disallowed-modules list (every Node built-in, with and without the `node:` prefix) and
 * go further: workflows/ may import only @temporalio/workflow, its own files, and the pure
 * runtime modules of definitions/ (no I/O, clock or randomness). Type-only imports are free.
 */
const nodeBuiltins = builtinModules.flatMap((m) => [m, `node:${m}`]);

/**
 * Layering (lib/store/owners/README.md): lib/ is the bottom layer and knows
 * neither the activities, the API nor the HTTP framework; activities/ never imports api/ (the API
 * mounts the apps, and hands an app's own routes what they need: activities/registry/routes.ts);
 * routes (api/routes/, and an app's own activities/apps/<app>/routes*.ts) reach the store only
 * through services, which call the table owners in lib/store/owners/; only entry modules and tests
 * build a process with the composition root (platform/).
 * test/layering-lint.test.ts proves these rules fire.
 */
const layerZones = [
  {
    target: './lib',
    from: ['./activities', './api', './worker', './workflows', './scripts'],
    message:
      'lib/ is the bottom layer: it imports neither activities/, api/, worker/, workflows/ nor scripts/.',
  },
  {
    target: './activities',
    from: ['./api'],
    message:
      'activities/ never imports api/: an app that serves its own routes gets what it needs from the API through activities/registry/routes.ts.',
  },
  {
    target: ['./lib', './activities', './workflows', './definitions', './api/routes', './api/services'],
    from: ['./platform'],
    message:
      'platform/ is the composition root: only entry modules (api/main.ts, worker/, scripts/) and tests build a process with it; other modules receive their parts.',
  },
  {
    target: ['./api/routes', './activities/apps/*/routes*.ts'],
    from: ['./lib/store', './lib/crypto/sealed-value.ts', './lib/crypto/aead.ts'],
    message:
      'Routes call services (api/services/); only the table owners (lib/store/owners/) touch the store or seal values.',
  },
];
/**
 * One folder per app: modules outside `activities/apps/<app>/` use the app only through its
 * definition (`app.ts`) and its public face (`index.ts`), so its internals can change without
 * touching anything else. One zone per app folder; its targets are every other source folder.
 */
const dirsIn = (dir) =>
  readdirSync(new URL(`${dir}/`, import.meta.url), { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules')
    .map((e) => `${dir}/${e.name}`);
const appFolders = dirsIn('./activities/apps');
const outsideApps = [
  ...dirsIn('.').filter((d) => !['./activities', './docs', './deploy', './bin'].includes(d)),
  ...dirsIn('./activities').filter((d) => d !== './activities/apps'),
  './activities/*.ts',
  './activities/apps/index.ts',
];
const appZones = appFolders.map((app) => ({
  target: [...outsideApps, ...appFolders.filter((other) => other !== app)],
  from: app,
  except: ['./app.ts', './index.ts'],
  message:
    "Outside an app's folder, use the app only through its app.ts and index.ts (its public face); add what you need there.",
}));
const httpFramework = ['fastify', 'fastify-*', '@fastify/*'];
/** The only modules under activities/ that may import the HTTP framework: an app's own routes and their contract. */
const appRouteModules = ['activities/apps/*/routes*.ts', 'activities/registry/routes.ts'];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'web/dist/**',
      'sdk/dist/**',
      'dist/**',
      '.data/**',
      '.tools/**',
      'coverage/**',
      'bin/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      // Sources import `./x.js` that is `./x.ts` on disk: import-x rules must resolve them to see them.
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.node'],
          extensionAlias: { '.js': ['.ts', '.js'] },
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      'import-x/no-cycle': ['error', { maxDepth: 10 }],
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones, ...appZones] }],
    },
  },
  {
    files: ['lib/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: httpFramework,
              message: 'lib/ knows no HTTP framework: the API (api/) adapts it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['activities/**/*.ts'],
    ignores: appRouteModules,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: httpFramework,
              message:
                "activities/ knows no HTTP framework, except an app's own routes (activities/apps/<app>/routes*.ts) and their contract (activities/registry/routes.ts).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['api/routes/**/*.ts', 'activities/apps/*/routes*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'kysely',
              message: 'Routes run no SQL: call a service, which calls the table owner (lib/store/owners/).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    ignores: ['workflows/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'Workflow code must be deterministic: no Node built-ins.',
            allowTypeImports: true,
          })),
          patterns: [
            {
              regex: '^(?!@temporalio/workflow$|\\./|\\.\\./definitions/runtime/).*',
              message:
                'workflows/ may import only @temporalio/workflow, its own files and definitions/runtime/ (pure). Use `import type` for anything else.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'simulators/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Fastify plugins and route handlers are async by convention, with or without an await.
    files: ['api/**/*.ts', ...appRouteModules, 'test/fixtures/toy-app/routes.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    files: ['*.js', '*.mjs', 'scripts/**/*.mjs', 'bin/**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    // The Temporal failure converter is loaded with require() by the SDK (see the file).
    files: ['lib/**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node, sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
