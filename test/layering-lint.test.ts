/**
 * The lint rules that keep the layers apart (eslint.config.js, lib/store/owners/README.md): lib/
 * imports neither activities/, api/ nor the HTTP framework; activities/ imports no api/ and no
 * HTTP framework outside an app's own route modules; routes touch neither the store, SQL nor
 * sealing; outside an app's folder only its app.ts and index.ts are imported. Linted with the
 * real config, so turning a rule off fails here.
 */
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });
const RULES = new Set(['import-x/no-restricted-paths', '@typescript-eslint/no-restricted-imports']);

/** The layering messages ESLint reports for `code` placed at `file`. */
async function layeringErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const x = 1;\n`, {
    filePath: path.join(root, file),
  });
  return result!.messages.filter((m) => m.ruleId !== null && RULES.has(m.ruleId)).map((m) => m.message);
}

const LIB = 'lib/limits/tier-limits.ts';
const ROUTE = 'api/routes/chats.ts';
const LIB_LAYER =
  'lib/ is the bottom layer: it imports neither activities/, api/, worker/, workflows/ nor scripts/.';
const ROUTE_LAYER =
  'Routes call services (api/services/); only the table owners (lib/store/owners/) touch the store or seal values.';
const SKILL = 'activities/apps/encyclopedia/skills/get-summary.ts';
const APP_ROUTES = 'activities/apps/encyclopedia/routes.ts';
const ACTIVITIES_LAYER =
  'activities/ never imports api/: an app that serves its own routes gets what it needs from the API through activities/registry/routes.ts.';
const ROOT_LAYER =
  'platform/ is the composition root: only entry modules (api/main.ts, worker/, scripts/) and tests build a process with it; other modules receive their parts.';
const APP_FACE =
  "Outside an app's folder, use the app only through its app.ts and index.ts (its public face); add what you need there.";
const NO_SQL =
  "'kysely' import is restricted from being used. Routes run no SQL: call a service, which calls the table owner (lib/store/owners/).";

describe('layering lint rules', () => {
  it.each([
    [LIB, '../../activities/policy.js', LIB_LAYER],
    [LIB, '../../api/deps.js', LIB_LAYER],
    [LIB, '../../worker/index.js', LIB_LAYER],
    [ROUTE, '../../lib/store/owners/chats.js', ROUTE_LAYER],
    [ROUTE, '../../lib/store/db.js', ROUTE_LAYER],
    [ROUTE, '../../lib/crypto/sealed-value.js', ROUTE_LAYER],
    [ROUTE, '../../lib/crypto/aead.js', ROUTE_LAYER],
    [SKILL, '../../../../api/auth.js', ACTIVITIES_LAYER],
    [APP_ROUTES, '../../../api/schemas.js', ACTIVITIES_LAYER],
    [APP_ROUTES, '../../../lib/store/db.js', ROUTE_LAYER],
    [SKILL, '../../../../platform/create-platform.js', ROOT_LAYER],
    ['api/services/runs.ts', '../../platform/create-platform.js', ROOT_LAYER],
    ['definitions/compiler/compile-step.ts', '../../platform/create-platform.js', ROOT_LAYER],
    ['api/services/skill-calls.ts', '../../activities/apps/hosting/config.js', APP_FACE],
    ['activities/decision/service.ts', '../apps/electronics/upstream/service.js', APP_FACE],
    ['activities/apps/index.ts', './design/routes.js', APP_FACE],
    ['test/integration/metrics.test.ts', '../../activities/apps/electronics/skills/relevance.js', APP_FACE],
    ['bench/icons.bench.ts', '../activities/apps/design/upstream/offline.js', APP_FACE],
    [SKILL, '../../hosting/skills/search-domains/skill.js', APP_FACE],
  ])('%s may not import %s', async (file, spec, message) => {
    for (const code of [
      `import * as m from '${spec}';\nvoid m;`,
      `import type * as T from '${spec}';\nexport type U = typeof T;`,
    ])
      expect(await layeringErrors(file, code)).toEqual([
        `Unexpected path "${spec}" imported in restricted zone. ${message}`,
      ]);
  });

  it.each([ROUTE, APP_ROUTES])('%s may not import kysely', async (file) => {
    expect(await layeringErrors(file, "import { sql } from 'kysely';\nvoid sql;")).toEqual([NO_SQL]);
  });

  it.each([["import type { FastifyReply } from 'fastify';"], ["import cors from '@fastify/cors';"]])(
    'lib/ may not import the HTTP framework: %s',
    async (code) => {
      const errors = await layeringErrors(LIB, code);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/lib\/ knows no HTTP framework: the API \(api\/\) adapts it\.$/);
    },
  );

  it.each([
    [SKILL, "import type { FastifyRequest } from 'fastify';"],
    [
      'activities/apps/design/icon-svgs.ts',
      "import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';",
    ],
  ])('%s may not import the HTTP framework: %s', async (file, code) => {
    expect(await layeringErrors(file, code)).toEqual([
      `'${/'([^']+)'/.exec(code)![1]}' import is restricted from being used by a pattern. activities/ knows no HTTP framework, except an app's own routes (activities/apps/<app>/routes*.ts) and their contract (activities/registry/routes.ts).`,
    ]);
  });

  it.each([
    [APP_ROUTES, "import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';"],
    ['activities/apps/design/routes.ts', "import type { FastifyRequest } from 'fastify';"],
    ['activities/registry/routes.ts', "import type { FastifyReply } from 'fastify';"],
    [
      'activities/apps/encyclopedia/route-service.ts',
      "import type { Store } from '../../../lib/store/db.js';",
    ],
    [LIB, "import { openStore } from '../store/db.js';"],
    [LIB, "import { SkillflowError } from '../errors/skillflow-error.js';"],
    [ROUTE, "import { ChatIdSchema } from '../../lib/chat-id.js';"],
    [ROUTE, "import type { ChatsService } from '../services/chats.js';"],
    ['api/services/chats.ts', "import { saveChat } from '../../lib/store/owners/chats.js';"],
    ['activities/platform/embeds.ts', "import { saveEmbedResult } from '../../lib/store/owners/embeds.js';"],
    ['activities/apps/index.ts', "import { hostingApp } from './hosting/app.js';"],
    ['bench/icons.bench.ts', "import { iconRoutes } from '../activities/apps/design/index.js';"],
    [
      'platform/create-platform.ts',
      "import { encyclopediaApp } from '../activities/apps/encyclopedia/index.js';",
    ],
    [SKILL, "import { encyclopediaConfig } from '../config.js';"],
  ])('%s may say %s', async (file, code) => {
    expect(await layeringErrors(file, code)).toEqual([]);
  });
});
