/** The workflow pages' pure logic: diagnostics at line and column, run-form inputs, task timing. */
import { describe, expect, it } from 'vitest';
import { describeDiagnostic, offsetOf, type Diagnostic } from '../../web/src/workflow/diagnostics.js';
import { buildInputs, initialValue, parseValue } from '../../web/src/workflow/inputs.js';
import { duration, summary } from '../../web/src/task/timing.js';
import { timelineBars } from '../../web/src/task/timeline.js';
import { loopCalls } from '../../web/src/workflow/loop-calls.js';

const d = (line: number, column: number, message = 'm'): Diagnostic => ({
  code: 'UNKNOWN_SKILL',
  message,
  path: 'steps[0].use_app_skill',
  line,
  column,
});

describe('diagnostics', () => {
  it('says where, then what', () => {
    expect(describeDiagnostic(d(7, 20, 'No skill hosting.nope.'))).toBe(
      'Line 7, column 20: No skill hosting.nope.',
    );
  });

  it('adds the closest names when the message does not say them', () => {
    const step = {
      ...d(9, 12, 'The reference names a step that does not exist.'),
      code: 'UNKNOWN_STEP' as const,
    };
    expect(describeDiagnostic({ ...step, suggestions: ['search', 'sarch'] })).toBe(
      'Line 9, column 12: The reference names a step that does not exist. Did you mean search or sarch?',
    );
    const skill = 'Unknown skill. Did you mean hosting.search_domains?';
    expect(describeDiagnostic({ ...d(6, 20, skill), suggestions: ['hosting.search_domains'] })).toBe(
      `Line 6, column 20: ${skill}`,
    );
  });

  it('turns a line and column into a caret offset, clamped to the text', () => {
    const src = 'ab\ncdef\ng';
    expect(offsetOf(src, 1, 1)).toBe(0);
    expect(offsetOf(src, 2, 3)).toBe(5); // "e"
    expect(src[offsetOf(src, 2, 3)]).toBe('e');
    expect(offsetOf(src, 2, 99)).toBe(7); // end of line 2
    expect(offsetOf(src, 3, 1)).toBe(8);
    expect(offsetOf(src, 9, 1)).toBe(src.length);
  });
});

describe('run-form inputs', () => {
  const specs = {
    word: { type: 'string' as const, required: true },
    times: { type: 'integer' as const, required: false, default: 2 },
    ratio: { type: 'number' as const, required: false },
    loud: { type: 'boolean' as const, required: false, default: true },
    tlds: { type: 'array' as const, required: false },
    extra: { type: 'object' as const, required: false },
  };

  it('starts from the declared defaults', () => {
    expect(initialValue(specs.times)).toBe('2');
    expect(initialValue(specs.loud)).toBe(true);
    expect(initialValue(specs.word)).toBe('');
    expect(initialValue({ type: 'array', required: false, default: ['com'] })).toBe('["com"]');
  });

  it('types each value by its declared type and leaves empty optional fields to the server', () => {
    expect(
      buildInputs(specs, {
        word: 'cedar',
        times: '3',
        ratio: '',
        loud: false,
        tlds: '["com","io"]',
        extra: '',
      }),
    ).toEqual({ ok: true, inputs: { word: 'cedar', times: 3, loud: false, tlds: ['com', 'io'] } });
  });

  it('names every wrong field', () => {
    expect(
      buildInputs(specs, { word: ' ', times: '2.5', ratio: 'x', loud: true, tlds: '{"a":1}', extra: '[' }),
    ).toEqual({
      ok: false,
      errors: {
        word: 'Required.',
        times: 'Enter a whole number.',
        ratio: 'Enter a number.',
        tlds: 'Enter a list.',
        extra: 'Enter JSON (an object in { }).',
      },
    });
    expect(parseValue(specs.extra, '[1]')).toEqual({ ok: false, message: 'Enter an object.' });
  });
});

describe('task timing', () => {
  it('formats durations and count summaries', () => {
    expect(duration('2026-11-23T10:00:00.000Z', '2026-11-23T10:00:00.850Z')).toBe('850 ms');
    expect(duration('2026-11-23T10:00:00.000Z', '2026-11-23T10:00:04.200Z')).toBe('4.2 s');
    expect(duration('2026-11-23T10:00:00.000Z', '2026-11-23T10:03:05.000Z')).toBe('3 min 5 s');
    expect(duration('2026-11-23T10:00:00.000Z', null)).toBe('—');
    expect(summary({ results: 3, truncated: false })).toBe('results 3, truncated false');
    expect(summary(null)).toBe('');
  });
});

describe('step timeline', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 10, 23, 10, 0, s)).toISOString();

  it('places each started step by its start and length within the task', () => {
    const task = { started_at: at(0), finished_at: at(10) };
    const steps = [
      { id: 'search', status: 'completed', started_at: at(0), finished_at: at(4) },
      { id: 'quick', status: 'completed', started_at: at(4), finished_at: at(4) },
      { id: 'tell', status: 'failed', started_at: at(5), finished_at: at(10) },
      { id: 'later', status: 'pending', started_at: null, finished_at: null },
    ];
    expect(timelineBars(task, steps, Date.parse(at(60)))).toEqual([
      { id: 'search', status: 'completed', left: 0, width: 40, open: false },
      { id: 'quick', status: 'completed', left: 40, width: 0.5, open: false },
      { id: 'tell', status: 'failed', left: 50, width: 50, open: false },
    ]);
  });

  it("leaves out steps a re-run reused: they kept the earlier run's times", () => {
    const task = { started_at: at(100), finished_at: at(110) };
    const steps = [
      { id: 'search', status: 'reused', started_at: at(0), finished_at: at(40) },
      { id: 'tell', status: 'completed', started_at: at(100), finished_at: at(110) },
    ];
    expect(timelineBars(task, steps, Date.parse(at(120)))).toEqual([
      { id: 'tell', status: 'completed', left: 0, width: 100, open: false },
    ]);
  });

  it('runs an open step to now while the task runs; nothing started, no bars', () => {
    const task = { started_at: at(0), finished_at: null };
    const steps = [{ id: 'slow', status: 'running', started_at: at(2), finished_at: null }];
    expect(timelineBars(task, steps, Date.parse(at(8)))).toEqual([
      { id: 'slow', status: 'running', left: 25, width: 75, open: true },
    ]);
    expect(timelineBars(task, [{ id: 'a', status: 'pending' }], Date.parse(at(8)))).toEqual([]);
  });
});

describe("a loop's calls", () => {
  it('lists the calling steps of an element, inside its groups and handlers, not inside an inner loop', () => {
    const graph = {
      nodes: [
        { id: 'each', kind: 'for_each', label: 'for each' },
        { id: 'look', kind: 'skill', label: 'hosting.search_domains', parent: 'each' },
        { id: 'pause', kind: 'wait', label: 'wait 1s', parent: 'each' },
        { id: 'both', kind: 'parallel', label: 'parallel', parent: 'each' },
        { id: 'tell', kind: 'chat', label: 'chat message', parent: 'both' },
        { id: 'look.on_error', kind: 'handler', label: 'when look fails', parent: 'each' },
        { id: 'ask', kind: 'decide', label: 'decision', parent: 'look.on_error' },
        { id: 'inner', kind: 'for_each', label: 'for each', parent: 'each' },
        { id: 'deep', kind: 'skill', label: 'design.search_icons', parent: 'inner' },
        { id: 'after', kind: 'skill', label: 'hosting.search_domains' },
      ],
      edges: [],
    } as unknown as Parameters<typeof loopCalls>[0];
    expect(loopCalls(graph, 'each').map((n) => n.id)).toEqual(['look', 'tell', 'ask']);
    expect(loopCalls(graph, 'inner').map((n) => n.id)).toEqual(['deep']);
  });
});
