/** Every skill of the catalogue takes 1 to 5 request items and refuses others in the same words. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/logger.js';
import { staticSecrets } from '../../lib/secrets.js';
import { APPS } from '../apps/index.js';
import { loadRegistry } from './registry.js';

const registry = await loadRegistry(
  {
    config: loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }),
    logger: createLogger('silent'),
    secrets: staticSecrets({}),
  },
  APPS,
);
const skills = APPS.flatMap((app) =>
  app.skills.map((s) => ({ ref: `${app.id}.${s.id}`, app: app.id, id: s.id })),
);

describe('request items', () => {
  it.each(skills)('$ref refuses 0 and 6 items with the shared messages', ({ app, id }) => {
    const input = registry.get(app, id)?.impl?.input;
    expect(input).toBeDefined();
    const issuesAt = (requests: unknown[]) => {
      const parsed = input!.safeParse({ requests });
      expect(parsed.success).toBe(false);
      return parsed.error!.issues.filter((i) => i.path.join('.') === 'requests').map((i) => i.message);
    };
    expect(issuesAt([])).toEqual(['At least one request is required.']);
    expect(issuesAt([{}, {}, {}, {}, {}, {}])).toEqual(['At most 5 requests are allowed.']);
  });
});
