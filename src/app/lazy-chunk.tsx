/**
 * A component in a chunk of its own, the one way the app loads a part of a screen on demand.
 *
 * React.lazy keeps a failed load forever: a chunk asked for while the tablet had no signal (before the
 * service worker had saved the app) would break the screen until a reload. Here a failed load is
 * tried again each time the connection returns or the service worker takes the page, and meanwhile
 * the Suspense fallback (`ChunkFallback`) says what the grower is waiting for.
 */
import { type Attributes, type ComponentType, lazy, type ReactNode, useState } from 'react';
import { useSyncStatus } from '../sync/sync-store';
import { useTranslation } from 'react-i18next';
import { appTexts } from './texts';

export interface LazyChunk<Props> {
  Component: ComponentType<Props>;
  /** Starts loading the chunk (a screen asks ahead for what a tap will need); loading twice loads once. */
  preload: () => Promise<void>;
  /**
   * Resolves once the chunk is loaded, or after `withinMs`, whichever is first (it starts the load). A
   * tap that is to show the part waits this long before showing it: a part shown before its chunk is
   * here suspends, and React keeps a Suspense fallback on screen at least 300 ms once it showed, so a
   * chunk a moment away is quicker waited for than shown through its fallback.
   */
  readyWithin: (withinMs: number) => Promise<void>;
  /** Whether the chunk is loaded: a part shown now renders at once. */
  isLoaded: () => boolean;
}

export function lazyChunk<Props>(load: () => Promise<ComponentType<Props>>): LazyChunk<Props> {
  let loading: Promise<ComponentType<Props>> | null = null;
  let loaded: ComponentType<Props> | null = null;
  const once = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  const untilLoaded = async (): Promise<ComponentType<Props>> => {
    for (;;) {
      try {
        return await once();
      } catch {
        await nextChance();
      }
    }
  };
  const Lazy = lazy(async () => ({ default: await untilLoaded() })) as unknown as ComponentType<Props>;
  /**
   * A chunk loaded already (preloaded) renders at once: React.lazy would suspend on its first render
   * all the same, and React holds content back for 300 ms after a fallback shows. The choice is made
   * once per mount, so a part that mounted through `Lazy` is not remounted (and its state lost) later.
   */
  function Chunk(props: Props) {
    const [Ready] = useState(() => loaded);
    const Shown = (Ready ?? Lazy) as ComponentType<Props & Attributes>;
    return <Shown {...(props as Props & Attributes)} />;
  }
  const preload = () => once().then(
    () => undefined,
    () => undefined,
  );
  const readyWithin = (withinMs: number) => {
    if (loaded) return Promise.resolve();
    let timer: ReturnType<typeof setTimeout> | undefined;
    return Promise.race([preload(), new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)))]).finally(() => clearTimeout(timer));
  };
  return { Component: Chunk, preload, readyWithin, isLoaded: () => loaded !== null };
}

/** Resolves when a load may now succeed: the connection returned, a service worker took the page, or a while passed. */
function nextChance(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      window.removeEventListener('online', done);
      navigator.serviceWorker?.removeEventListener('controllerchange', done);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, 15_000);
    window.addEventListener('online', done);
    navigator.serviceWorker?.addEventListener('controllerchange', done);
  });
}

/** What shows while a chunk loads; offline it says the part waits for the connection. */
export function ChunkFallback({ children }: { children: ReactNode }) {
  // A fallback must not itself wait for Spanish or Dutch texts: English until they arrive.
  const { t } = useTranslation(appTexts, { useSuspense: false });
  const online = useSyncStatus((status) => status.online);
  return (
    <p className="muted" role="status">
      {children}
      {!online && ` ${t('chunkOffline')}`}
    </p>
  );
}
