/**
 * The answer cache (answer-cache.ts) with a change hub that delivers table changes as the real one's
 * NOTIFY listener does: what is kept, what a change drops, and that reads of an answer being made
 * share it unless a change came since it was begun.
 */
import { describe, expect, it } from 'vitest';
import type { ChangeHub } from '../domains/replication/changes';
import { createAnswerCache } from './answer-cache';

/** The table-change half of a change hub: `change(table, company)` is a committed row's notification. */
function tableChanges() {
  const listeners = new Map<string, Set<(companyId: number) => void>>();
  const hub = {
    onTableChange(table: string, listener: (companyId: number) => void) {
      const set = listeners.get(table) ?? new Set();
      set.add(listener);
      listeners.set(table, set);
      return () => set.delete(listener);
    },
  } as unknown as ChangeHub;
  const change = (table: string, companyId: number) => {
    for (const listener of listeners.get(table) ?? []) listener(companyId);
  };
  return { hub, change };
}

/** An answer made when `finish` is called, counting how often it was begun. */
function slowAnswer() {
  let made = 0;
  const pending: Array<() => void> = [];
  const produce = () => {
    made += 1;
    const text = `answer ${made}`;
    return new Promise<string>((resolve) => pending.push(() => resolve(text)));
  };
  return { produce, made: () => made, finish: () => pending.splice(0).forEach((resolve) => resolve()) };
}

describe('the answer cache', () => {
  it('makes an answer once for reads that ask while it is being made, then serves it kept', async () => {
    const { hub } = tableChanges();
    const cache = createAnswerCache(hub, ['rooms']);
    const answer = slowAnswer();
    const reads = Array.from({ length: 20 }, () => cache.through(1, 'room:7', answer.produce));
    answer.finish();
    expect(await Promise.all(reads)).toEqual(Array.from({ length: 20 }, () => 'answer 1'));
    expect(await cache.through(1, 'room:7', answer.produce)).toBe('answer 1');
    expect(answer.made()).toBe(1);
    cache.close();
  });

  it('does not hand a read an answer begun before a change of the company, nor keep that answer', async () => {
    const { hub, change } = tableChanges();
    const cache = createAnswerCache(hub, ['rooms']);
    const answer = slowAnswer();
    const beforeChange = cache.through(1, 'room:7', answer.produce);
    change('rooms', 1);
    const afterChange = cache.through(1, 'room:7', answer.produce);
    answer.finish();
    expect(await beforeChange).toBe('answer 1');
    expect(await afterChange).toBe('answer 2');
    // The second, begun after the change, is the one kept.
    expect(await cache.through(1, 'room:7', answer.produce)).toBe('answer 2');
    expect(answer.made()).toBe(2);
    cache.close();
  });

  it('drops only the changed company’s answers, and makes an answer again after a failed attempt', async () => {
    const { hub, change } = tableChanges();
    const cache = createAnswerCache(hub, ['rooms']);
    await cache.through(1, 'room:7', () => Promise.resolve('first company'));
    await cache.through(2, 'room:9', () => Promise.resolve('second company'));
    change('rooms', 2);
    expect(await cache.through(1, 'room:7', () => Promise.resolve('made again'))).toBe('first company');
    expect(await cache.through(2, 'room:9', () => Promise.resolve('made again'))).toBe('made again');

    await expect(cache.through(3, 'room:1', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await cache.through(3, 'room:1', () => Promise.resolve('after the failure'))).toBe('after the failure');
    cache.close();
  });

  it('makes an answer again once it has expired', async () => {
    const { hub } = tableChanges();
    let clock = 0;
    const cache = createAnswerCache(hub, ['rooms'], () => clock);
    await cache.through(1, 'room:7', () => Promise.resolve('old'));
    clock += 59_000;
    expect(await cache.through(1, 'room:7', () => Promise.resolve('new'))).toBe('old');
    clock += 2_000;
    expect(await cache.through(1, 'room:7', () => Promise.resolve('new'))).toBe('new');
    cache.close();
  });
});
