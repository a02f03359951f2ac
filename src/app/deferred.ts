/**
 * A domain function loaded on its first call. The domain functions (src/api) carry the request
 * schemas (zod, the `context` chunk): building them takes a tablet's main thread for some 100 ms,
 * which a screen that only reads the local store does not need before its first paint (issue 13: a
 * 2,000-box room offline in ≤ 1 s). A screen's writes and online reads go through this; the call is
 * the same, it only waits for the chunk the first time (offline the service worker has it).
 */
export function deferred<Module, Name extends keyof Module>(load: () => Promise<Module>, name: Name): Module[Name] {
  return (async (...args: unknown[]) => {
    const module = await load();
    return (module[name] as (...given: unknown[]) => unknown)(...args);
  }) as Module[Name];
}
