/**
 * The lint rule that keeps workflows/ deterministic: it must reject Node built-ins and any
 * package other than @temporalio/workflow, while allowing type-only imports and the pure
 * definitions runtime.
 */
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });
const workflowFile = path.join(root, 'workflows/run-definition.ts');

async function importErrors(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: workflowFile });
  return result!.messages
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

describe('workflow determinism lint rule', () => {
  it.each([
    ["import fs from 'node:fs';", 'no Node built-ins'],
    ["import { randomUUID } from 'crypto';", 'no Node built-ins'],
    ["import { request } from 'undici';", 'workflows/ may import only'],
    ["import { openStore } from '../lib/store/db.js';", 'workflows/ may import only'],
    ["import { activityPolicy } from '../activities/policy.js';", 'workflows/ may import only'],
  ])('rejects %s', async (code, expected) => {
    const errors = await importErrors(`${code}\nexport const x = 1;\n`);
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(
      errors.some((e) => e.includes(expected)),
      errors.join(' | '),
    ).toBe(true);
  });

  it.each([
    "import { proxyActivities } from '@temporalio/workflow';",
    "import type { Store } from '../lib/store/db.js';",
    "import { renderTemplate } from '../definitions/runtime/index.js';",
    "import { summarise } from './progress.js';",
  ])('allows %s', async (code) => {
    expect(await importErrors(`${code}\nexport const x = 1;\n`)).toEqual([]);
  });
});
