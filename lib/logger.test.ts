import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { chooseLogFormat, createLogger, loadPinoPretty, type LoggerOptions } from './logger.js';

/** A destination that keeps what the logger wrote. */
function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
const SECRET = 'sf_k0123_very-secret-token';

/** What a logger of `opts` writes for one line that carries a token. */
async function logKeyUse(opts: LoggerOptions): Promise<string> {
  const out = sink();
  createLogger('info', {}, { ...opts, destination: out.stream }).info({ token: SECRET }, 'key used');
  await settle();
  return out.text();
}

describe('chooseLogFormat', () => {
  it('is pretty with auto only on a terminal outside production', () => {
    const auto = (isTTY: boolean, nodeEnv: string) => chooseLogFormat({ setting: 'auto', isTTY, nodeEnv });
    expect(auto(true, 'development')).toBe('pretty');
    expect(auto(true, 'test')).toBe('pretty');
    expect(auto(true, 'production')).toBe('json');
    expect(auto(false, 'development')).toBe('json');
    expect(auto(false, 'production')).toBe('json');
  });

  it('takes json and pretty as set, terminal or not', () => {
    expect(chooseLogFormat({ setting: 'json', isTTY: true, nodeEnv: 'development' })).toBe('json');
    expect(chooseLogFormat({ setting: 'pretty', isTTY: false, nodeEnv: 'production' })).toBe('pretty');
  });
});

describe('createLogger', () => {
  it('writes redacted JSON lines by default', async () => {
    const out = sink();
    createLogger('info', { component: 'api' }, { destination: out.stream }).info(
      { token: SECRET, req: { headers: { authorization: `Bearer ${SECRET}` } } },
      'key used',
    );
    await settle();
    const line = JSON.parse(out.text().trim()) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 30,
      service: 'skillflow',
      component: 'api',
      msg: 'key used',
      token: '[redacted]',
      req: { headers: { authorization: '[redacted]' } },
    });
    expect(out.text()).not.toContain(SECRET);
  });

  it('writes pretty, non-JSON lines with redaction through pino-pretty (a development dependency)', async () => {
    expect(loadPinoPretty()).toBeTypeOf('function');
    const text = await logKeyUse({ format: 'pretty' });
    expect(text).toContain('key used');
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(SECRET);
    expect(() => JSON.parse(text.split('\n')[0]!) as unknown).toThrow();
  });

  it('falls back to redacted JSON and says why when pino-pretty is missing', async () => {
    const text = await logKeyUse({ format: 'pretty', loadPretty: () => undefined });
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l['msg'])).toEqual([
      'pretty logs need pino-pretty (npm install pino-pretty); logging JSON',
      'key used',
    ]);
    expect(lines[1]).toMatchObject({ token: '[redacted]' });
    expect(text).not.toContain(SECRET);
  });
});
