import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { REQUEST_LOG_MAX, RequestLog } from './request-log.js';

describe('a simulator request log', () => {
  it('keeps the newest entries up to its bound, oldest first', () => {
    const log = new RequestLog<number>(3);
    for (let i = 1; i <= 5; i++) log.push(i);
    expect(log.entries()).toEqual([3, 4, 5]);
    log.push(6);
    expect(log.entries()).toEqual([4, 5, 6]);
  });

  it('answers a copy, and clears', () => {
    const log = new RequestLog<string>();
    log.push('a');
    log.entries().push('b');
    expect(log.entries()).toEqual(['a']);
    log.clear();
    expect(log.entries()).toEqual([]);
  });

  it('holds at most REQUEST_LOG_MAX entries by default', () => {
    const log = new RequestLog<number>();
    for (let i = 0; i < REQUEST_LOG_MAX + 25; i++) log.push(i);
    const kept = log.entries();
    expect(kept).toHaveLength(REQUEST_LOG_MAX);
    expect([kept[0], kept.at(-1)]).toEqual([25, REQUEST_LOG_MAX + 24]);
  });

  it('counts the most requests in flight at once, until each answer closes', () => {
    const log = new RequestLog<number>();
    const answers = [new EventEmitter(), new EventEmitter(), new EventEmitter()];
    log.track(answers[0]!);
    log.track(answers[1]!);
    answers[0]!.emit('close');
    log.track(answers[2]!);
    expect(log.peakInFlight()).toBe(2);
    log.clear();
    expect(log.peakInFlight()).toBe(2); // two are still open
    answers[1]!.emit('close');
    answers[2]!.emit('close');
    log.clear();
    expect(log.peakInFlight()).toBe(0);
  });
});
