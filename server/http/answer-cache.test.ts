/**
 * The answer cache (answer-cache.ts) with a change hub that delivers table changes as the real one's
 * NOTIFY listener does: what is kept, what a change drops, and that reads of an answer being made
 * share it unless a change came since it was begun.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ChangeHub } from '../domains/replication/changes';
import { type AnswerCache, createAnswerCache } from './answer-cache';

/** An answer's JSON text, read through the cache. */
const read = async (cache: AnswerCache, companyId: number, key: string, produce: () => Promise<string>) => (await cache.through(companyId, key, produce)).json.toString();

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
    const reads = Array.from({ length: 20 }, () => read(cache, 1, 'room:7', answer.produce));
    answer.finish();
    expect(await Promise.all(reads)).toEqual(Array.from({ length: 20 }, () => 'answer 1'));
    expect(await read(cache, 1, 'room:7', answer.produce)).toBe('answer 1');
    expect(answer.made()).toBe(1);
    cache.close();
  });

  it('does not hand a read an answer begun before a change of the company, nor keep that answer', async () => {
    const { hub, change } = tableChanges();
    const cache = createAnswerCache(hub, ['rooms']);
    const answer = slowAnswer();
    const beforeChange = read(cache, 1, 'room:7', answer.produce);
    change('rooms', 1);
    const afterChange = read(cache, 1, 'room:7', answer.produce);
    answer.finish();
    expect(await beforeChange).toBe('answer 1');
    expect(await afterChange).toBe('answer 2');
    // The second, begun after the change, is the one kept.
    expect(await read(cache, 1, 'room:7', answer.produce)).toBe('answer 2');
    expect(answer.made()).toBe(2);
    cache.close();
  });

  it('drops only the changed company’s answers, and makes an answer again after a failed attempt', async () => {
    const { hub, change } = tableChanges();
    const cache = createAnswerCache(hub, ['rooms']);
    await read(cache, 1, 'room:7', () => Promise.resolve('first company'));
    await read(cache, 2, 'room:9', () => Promise.resolve('second company'));
    change('rooms', 2);
    expect(await read(cache, 1, 'room:7', () => Promise.resolve('made again'))).toBe('first company');
    expect(await read(cache, 2, 'room:9', () => Promise.resolve('made again'))).toBe('made again');

    await expect(read(cache, 3, 'room:1', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await read(cache, 3, 'room:1', () => Promise.resolve('after the failure'))).toBe('after the failure');
    cache.close();
  });

  it('makes an answer again once it has expired', async () => {
    const { hub } = tableChanges();
    let clock = 0;
    const cache = createAnswerCache(hub, ['rooms'], () => clock);
    await read(cache, 1, 'room:7', () => Promise.resolve('old'));
    clock += 59_000;
    expect(await read(cache, 1, 'room:7', () => Promise.resolve('new'))).toBe('old');
    clock += 2_000;
    expect(await read(cache, 1, 'room:7', () => Promise.resolve('new'))).toBe('new');
    cache.close();
  });

  it('makes each compressed form once, from the JSON kept', async () => {
    const { hub } = tableChanges();
    const cache = createAnswerCache(hub, ['rooms']);
    const text = JSON.stringify({ status: 'success', boxes: Array.from({ length: 500 }, (_, index) => ({ GridBoxID: index, X: index % 20, Y: Math.floor(index / 20) })) });
    const answer = await cache.through(1, 'room:7', () => Promise.resolve(text));
    const brotli = answer.encoded('br');
    expect(brotliDecompressSync(brotli).toString()).toBe(text);
    expect(gunzipSync(answer.encoded('gzip')).toString()).toBe(text);
    expect(brotli.length).toBeLessThan(text.length / 5);
    const again = await cache.through(1, 'room:7', () => Promise.resolve('made again'));
    expect(again.encoded('br')).toBe(brotli);
    cache.close();
  });
});
