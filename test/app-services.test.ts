/**
 * An app's services (`defineApp({ services })`) are built once per registry from the app's
 * configuration slice; every skill factory and the routes of that app receive the same object,
 * and the composition root reads them by the app's definition (`registry.servicesOf`). A
 * services factory that throws is the app's load problem: the app is skipped, the others load.
 */
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig, type Config } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { staticSecrets } from '../lib/secrets.js';
import { runSkill } from '../activities/runtime/run-skill.js';
import { createUpstreamMeter } from '../activities/runtime/upstream-meter.js';
import { defineApp, defineSkill, readOnlyCapabilities } from '../activities/registry/define.js';
import { loadRegistry } from '../activities/registry/registry.js';
import type { ApiRouteParts } from '../activities/registry/routes.js';

/** The tally app's services: what it was built from, and the calls its skills and route counted. */
interface Tally {
  prefix: string;
  calls: string[];
}

const Input = z.strictObject({
  requests: z
    .array(z.strictObject({ text: z.string() }))
    .min(1)
    .max(5),
});
const Output = z.object({ results: z.array(z.object({ text: z.string() })) });

const opened: Tally[] = [];
function tallyApp(id: string, build: (config: { prefix: string }) => Tally) {
  const skill = (skillId: string) =>
    defineSkill({
      id: skillId,
      title: skillId,
      description: 'Counts its calls on the app services.',
      capabilities: readOnlyCapabilities('sync'),
      anonymousAccess: 'none',
      pricing: { creditsPerRequest: 0 },
      policy: 'local',
      create: (platform: { config: { prefix: string }; services: Tally }) => ({
        input: Input,
        requestItem: Input.shape.requests.element,
        defaults: {},
        output: Output,
        workflowOutput: Output,
        run: (input: z.infer<typeof Input>) => {
          platform.services.calls.push(skillId);
          return Promise.resolve({
            results: input.requests.map((r) => ({ text: `${platform.config.prefix}${r.text}` })),
          });
        },
        toWorkflowOutput: (output: z.infer<typeof Output>) => output,
        billableItems: () => 0,
        previews: () => [],
      }),
    });
  return defineApp({
    id,
    title: id,
    description: 'Test fixture whose skills and route share one services object.',
    config: (config: Config) => ({ prefix: config.process.NODE_ENV }),
    services: build,
    skills: [skill('first'), skill('second')],
    routes: {
      plugin: (ctx) => (app) => {
        app.get(`/${id}`, () => {
          ctx.services.calls.push('route');
          return { prefix: ctx.config.prefix, calls: ctx.services.calls };
        });
        return Promise.resolve();
      },
    },
  });
}

const context = () => ({
  config: loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }),
  logger: createLogger('silent'),
  secrets: staticSecrets({}),
});

describe('app services', () => {
  it('are built once per registry from the slice; skills and routes share them; servicesOf reads them', async () => {
    const app = tallyApp('tally', (config) => {
      const tally = { prefix: config.prefix, calls: [] };
      opened.push(tally);
      return tally;
    });
    const registry = await loadRegistry(context(), [app]);
    expect(registry.problems).toEqual([]);
    expect(opened).toHaveLength(1);
    const services = registry.servicesOf(app);
    expect(services).toBe(opened[0]);
    expect(services?.prefix).toBe('test');

    for (const skillId of ['first', 'second']) {
      const skill = registry.available('tally', skillId)!;
      const meter = createUpstreamMeter({ skill: `tally.${skillId}` });
      const out = runSkill(skill, { requests: [{ text: 'x' }] }, { view: 'full', anonymous: false, meter });
      await expect(out).resolves.toEqual({ output: { results: [{ text: 'testx' }] }, previews: [] });
    }
    const server = Fastify();
    server.setValidatorCompiler(validatorCompiler);
    server.setSerializerCompiler(serializerCompiler);
    for (const routes of registry.routes) await server.register(routes.plugin({} as ApiRouteParts));
    const res = await server.inject({ method: 'GET', url: '/tally' });
    expect(res.json()).toEqual({ prefix: 'test', calls: ['first', 'second', 'route'] });
    await server.close();

    // A second registry (another process) opens the app again: its own services.
    const other = await loadRegistry(context(), [app]);
    expect(opened).toHaveLength(2);
    expect(other.servicesOf(app)).not.toBe(services);
    // A definition the registry was not loaded with has no services there, even under the same id.
    expect(registry.servicesOf(tallyApp('tally', () => ({ prefix: '', calls: [] })))).toBeUndefined();
  });

  it('a services factory that throws is the app load problem; the other apps load', async () => {
    const broken = tallyApp('broken_tally', () => {
      throw new Error('upstream client refused the configuration\nsecond line');
    });
    const fine = tallyApp('fine_tally', (config) => ({ prefix: config.prefix, calls: [] }));
    const registry = await loadRegistry(context(), [broken, fine]);
    expect(registry.problems).toEqual([
      { app: 'broken_tally', message: 'services: upstream client refused the configuration' },
    ]);
    expect(registry.apps.map((a) => a.id)).toEqual(['fine_tally']);
    expect(registry.get('broken_tally', 'first')).toBeUndefined();
    expect(registry.servicesOf(broken)).toBeUndefined();
    expect(registry.servicesOf(fine)?.prefix).toBe('test');
    expect(registry.routes).toHaveLength(1);
  });
});
