/**
 * What a screen keeps on this tablet in local storage as JSON (the last report data, weather and the
 * like, shown offline with the time it was fetched): one way to read it back and to write it.
 *
 * Reading never throws: a value missing, unreadable, or not of the shape `isKept` accepts (written by
 * an older version of the app) reads as null. Writing answers whether it was kept: storage may be full
 * or refused (a private window), and what was fetched still shows while online.
 */

/** The value kept under `key`, if there is one of the shape `isKept` accepts. */
export function readKept<T>(key: string, isKept: (value: unknown) => value is T): T | null {
  try {
    const kept = JSON.parse(localStorage.getItem(key) ?? 'null') as unknown;
    return isKept(kept) ? kept : null;
  } catch {
    return null;
  }
}

/** Keeps `value` under `key`; false when local storage refused it. */
export function writeKept(key: string, value: unknown): boolean {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}
