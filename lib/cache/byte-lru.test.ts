import { describe, expect, it } from 'vitest';
import { ByteLru } from './byte-lru.js';

const v = (bytes: number) => ({ bytes });

describe('ByteLru', () => {
  it('evicts the least recently used entries once the byte budget is passed', () => {
    const lru = new ByteLru<{ bytes: number }>(10);
    lru.set('a', v(4));
    lru.set('b', v(4));
    expect(lru.get('a')).toEqual(v(4)); // a is now the most recent
    lru.set('c', v(4)); // 12 > 10: b goes
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toEqual(v(4));
    expect(lru.get('c')).toEqual(v(4));
    expect(lru.size).toBe(8);
    expect(lru.count).toBe(2);
  });

  it('keeps nothing larger than the whole budget and replaces an existing key', () => {
    const lru = new ByteLru<{ bytes: number }>(10);
    lru.set('big', v(11));
    expect(lru.count).toBe(0);
    lru.set('a', v(3));
    lru.set('a', v(5));
    expect(lru.size).toBe(5);
  });
});
