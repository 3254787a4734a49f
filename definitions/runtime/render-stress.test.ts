/**
 * Stress templates that stay within every compile-time limit but would do unbounded work: each
 * must fail with TEMPLATE_TOO_LARGE at once, within a small CPU and memory bound. These are the
 * timed assertions of the render budget; the limits are generous against the measured figures
 * (a few ms and a few MB) but far below what the unbudgeted renderer took (seconds, hundreds of
 * MB, a RangeError).
 */
import { describe, expect, it } from 'vitest';
import { planOf } from '../testing/compile.js';
import { RENDER_BUDGET, TemplateBudgetError } from './budget.js';
import type { ChatPlanStep, RunScope, TemplateNode } from './plan.js';
import { renderTemplate } from './render-template.js';

const MAX_TEMPLATE = 16 * 1024;
const CPU_LIMIT_MS = 100;
const MEMORY_LIMIT_MB = 16;

/** Compiles `message` as the only step of a definition with the stress inputs declared. */
function compile(message: string): TemplateNode[] {
  const source = JSON.stringify({
    title: 'Stress',
    start_when: { manual: { inputs: { blob: { type: 'object' }, items: { type: 'array' } } } },
    steps: [{ id: 'notify', send_chat_message: { title: 't', message } }],
  });
  return (planOf(source).steps[0] as ChatPlanStep).message;
}

/** A run input of about 60,000 characters of JSON, full of characters that JSON escapes. */
const blob = { text: 'a"b\\c/'.repeat(10_000) };
const scope: RunScope = { inputs: { blob, items: Array.from({ length: 21 }, (_, i) => i) }, steps: {} };

const each3 = (body: string) =>
  `{{#each inputs.items}}{{#each inputs.items}}{{#each inputs.items}}${body}{{/each}}{{/each}}{{/each}}`;
/** `unit` repeated until the template (inside three loops of 21, 9,261 iterations) fills 16 KiB. */
const filled = (unit: string) =>
  each3(unit.repeat(Math.floor((MAX_TEMPLATE - each3('').length) / unit.length)));
const nested = (levels: number) => `{{len ${'(json '.repeat(levels)}inputs.blob${')'.repeat(levels)}}}`;

interface Measured {
  error: unknown;
  cpuMs: number;
  heapMb: number;
  rssMb: number;
}

/** Renders once and measures the CPU time and the heap and RSS growth of the render alone. */
function measure(nodes: TemplateNode[]): Measured {
  const heap0 = process.memoryUsage().heapUsed;
  const rss0 = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  let error: unknown;
  try {
    renderTemplate(nodes, scope);
  } catch (err) {
    error = err;
  }
  const cpu = process.cpuUsage(cpu0);
  const mb = (bytes: number) => Math.max(0, bytes) / 1e6;
  return {
    error,
    cpuMs: (cpu.user + cpu.system) / 1000,
    heapMb: mb(process.memoryUsage().heapUsed - heap0),
    rssMb: mb(process.memoryUsage().rss - rss0),
  };
}

describe('render budget under stress templates', () => {
  it.each([
    [
      '#if (json blob) filling 16 KiB inside 9,261 iterations',
      filled('{{#if (json inputs.blob)}}{{/if}}'),
      'value_characters',
    ],
    [
      'one #if (json blob) inside 9,261 iterations',
      each3('{{#if (json inputs.blob)}}y{{/if}}'),
      'value_characters',
    ],
    ['cheap #if filling 16 KiB inside 9,261 iterations', filled('{{#if inputs.items}}{{/if}}'), 'steps'],
    ['len of json nested 12 deep', nested(12), 'value_characters'],
    ['len of json nested 17 deep', nested(17), 'depth'],
  ] as const)(
    '%s fails with TEMPLATE_TOO_LARGE within the CPU and memory bound',
    (_name, template, limit) => {
      expect(template.length).toBeLessThanOrEqual(MAX_TEMPLATE);
      const nodes = compile(template);
      measure(nodes); // warm the code paths once; the second render is the one measured
      const { error, cpuMs, heapMb, rssMb } = measure(nodes);
      expect(error).toBeInstanceOf(TemplateBudgetError);
      expect(error).toMatchObject({
        code: 'TEMPLATE_TOO_LARGE',
        limit,
        message: 'The template renders more than the budget allows.',
      });
      console.log(
        `${_name}: ${cpuMs.toFixed(1)} ms CPU, heap +${heapMb.toFixed(1)} MB, rss +${rssMb.toFixed(1)} MB`,
      );
      expect(cpuMs).toBeLessThan(CPU_LIMIT_MS);
      expect(heapMb).toBeLessThan(MEMORY_LIMIT_MB);
      expect(rssMb).toBeLessThan(MEMORY_LIMIT_MB);
    },
  );

  it('still renders what fits: json of the blob once, and 9,261 cheap iterations', () => {
    expect(renderTemplate(compile('{{len (json inputs.blob)}}'), scope)).toBe(
      String(JSON.stringify(blob).length),
    );
    expect(renderTemplate(compile(each3('{{#if inputs.items}}.{{/if}}')), scope)).toBe('.'.repeat(21 ** 3));
    const { cpuMs } = measure(compile(each3('{{@index}}')));
    expect(cpuMs).toBeLessThan(CPU_LIMIT_MS);
  });

  it('counts the intermediate values of nested json before materialising them', () => {
    const quotes = {
      inputs: { blob: { q: '"'.repeat(RENDER_BUDGET.maxValueChars / 4) }, items: [] },
      steps: {},
    };
    // Each level doubles the escapes: the third level would pass the value budget.
    expect(() => renderTemplate(compile(nested(3)), quotes)).toThrow(
      expect.objectContaining({ code: 'TEMPLATE_TOO_LARGE', limit: 'value_characters' }),
    );
    expect(renderTemplate(compile(nested(1)), quotes)).toBe(
      String(JSON.stringify(quotes.inputs.blob).length),
    );
  });
});
