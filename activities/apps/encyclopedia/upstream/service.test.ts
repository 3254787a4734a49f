import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../lib/config.js';
import { encyclopediaConfig } from '../config.js';
import { type SkillflowError } from '../../../../lib/errors/skillflow-error.js';
import {
  startEncyclopediaSimulator,
  type EncyclopediaSimulator,
} from '../../../../simulators/encyclopedia/server.js';
import { fetchImage } from './image-proxy.js';
import { referenceResolver } from './references.js';
import { createEncyclopediaService } from './service.js';

const signal = new AbortController().signal;

describe('image proxy address check', () => {
  it('refuses an allowed host name that resolves to a private address, without connecting', async () => {
    let sent = 0;
    const err = await fetchImage(
      'http://images.internal.test/a.png',
      {
        allowedHosts: ['images.internal.test'],
        maxBytes: 1000,
        timeoutMs: 1000,
        userAgent: 'test (ops@test)',
        resolve: () => Promise.resolve([{ address: '10.0.0.5', family: 4 }]),
      },
      (fn) => {
        sent += 1;
        return fn();
      },
      signal,
    ).catch((e: unknown) => e);
    expect([(err as SkillflowError).code, (err as SkillflowError).details, sent]).toEqual([
      'IMAGE_REFUSED',
      { reason: 'address' },
      1,
    ]);
  });
});

describe('reference resolution', () => {
  let sim: EncyclopediaSimulator;
  beforeAll(async () => {
    sim = await startEncyclopediaSimulator();
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('never contacts the upstream for ordinary mentions; resolves only explicit references, in order', async () => {
    const config = loadConfig({
      ENCYCLOPEDIA_URL: sim.urlTemplate,
      ENCYCLOPEDIA_IMAGE_HOSTS: sim.imageHost,
      ENCYCLOPEDIA_USER_AGENT: 'test (ops@test)',
    });
    const resolve = referenceResolver(createEncyclopediaService(encyclopediaConfig(config)));
    const plain = 'Mercury, Paris and Ada Lovelace; write @encyclopedia or email@encyclopedia.org';
    expect(await resolve(plain, signal)).toBe(plain);
    expect(sim.requests()).toEqual([]);
    const out = await resolve(
      'Compare @encyclopedia:de:Merkur_(Planet) with @encyclopedia:en:No_such_page.',
      signal,
    );
    expect(out).toBe(
      `Compare with.\n\nSources:\n[1] Merkur (Planet) (de) ${sim.url}/de/wiki/Merkur_(Planet)\n    Der Merkur ist mit einem Durchmesser von knapp 4880 Kilometern der kleinste, sonnennächste Planet des Sonnensystems.\n[2] No such page (en) \n    not found`,
    );
    expect(sim.requests().map((r) => r.path)).toEqual([
      '/de/api/rest_v1/page/summary/Merkur_(Planet)',
      '/en/api/rest_v1/page/summary/No_such_page',
    ]);
  });
});
