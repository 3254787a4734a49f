/** web/src/routes.ts: the workspace's hash routes. */
import { describe, expect, it } from 'vitest';
import { parseRoute, skillHash } from '../../web/src/routes.js';

describe('workspace hash routes', () => {
  it('parses every page of the workspace', () => {
    expect(parseRoute('')).toEqual({ page: 'apps' });
    expect(parseRoute('#apps')).toEqual({ page: 'apps' });
    expect(parseRoute('#/apps/')).toEqual({ page: 'apps' });
    expect(parseRoute('#apps/hosting/search_domains')).toEqual({
      page: 'skill',
      app: 'hosting',
      skill: 'search_domains',
    });
    expect(parseRoute('#tasks/wf-123_abc')).toEqual({ page: 'task', taskId: 'wf-123_abc' });
    expect(parseRoute('#workflows')).toEqual({ page: 'workflows' });
    expect(parseRoute('#workflows/daily.report')).toEqual({ page: 'workflow', workflowId: 'daily.report' });
    expect(parseRoute('#approvals')).toEqual({ page: 'approvals' });
    expect(parseRoute('#runs')).toEqual({ page: 'runs' });
    expect(parseRoute('#messages')).toEqual({ page: 'messages' });
    expect(parseRoute('#messages/news')).toEqual({ page: 'chat', chatId: 'news' });
    expect(parseRoute('#messages/workflow%3Awf_0123')).toEqual({ page: 'chat', chatId: 'workflow:wf_0123' });
    expect(parseRoute('#messages/workflow:wf_0123')).toEqual({ page: 'chat', chatId: 'workflow:wf_0123' });
    expect(parseRoute('#runs?status=failed&trigger=manual')).toEqual({ page: 'runs' });
    expect(parseRoute('#approve/v1.k1.eyJydW4iOiJ4In0.c2ln-_')).toEqual({
      page: 'approve',
      token: 'v1.k1.eyJydW4iOiJ4In0.c2ln-_',
    });
  });

  it('answers not_found for unknown, malformed or over-long hashes', () => {
    for (const hash of [
      '#nope',
      '#apps/hosting',
      '#apps/a/b/c',
      '#tasks',
      '#tasks/a/b',
      '#approvals/x',
      '#runs/x',
      '#messages/a/b',
      '#messages/a%20b',
      `#messages/${'a'.repeat(161)}`,
      '#approve',
      '#approve/v1.a.b',
      '#approve/v2.a.b.c',
      '#approve/v1.a.b%2F.c',
      '#approve/v1.a.b.c/d',
      `#approve/v1.a.${'b'.repeat(1020)}.c`,
      '#apps/%3Cscript%3E/x',
      '#apps/%E0%A4%A/x',
      `#tasks/${'a'.repeat(129)}`,
    ]) {
      expect(parseRoute(hash)).toEqual({ page: 'not_found' });
    }
  });

  it('builds a skill hash that parses back to the same skill', () => {
    expect(skillHash('design', 'search_icons')).toBe('#apps/design/search_icons');
    expect(parseRoute(skillHash('design', 'search_icons'))).toEqual({
      page: 'skill',
      app: 'design',
      skill: 'search_icons',
    });
  });
});
