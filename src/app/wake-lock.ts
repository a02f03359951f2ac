/**
 * Keeps the tablet's screen on while `active` (issue 19): during a scan or a form filled across several
 * boxes, a grower's hands are on the plants, and a screen that sleeps mid-way loses their place. Uses
 * the Screen Wake Lock API where the browser has it (Chromium, Safari 16.4+ on iPad, Firefox 126+); the
 * browser releases the lock when the page is hidden, so it is taken again when the page shows. Where
 * the API is missing or refuses (low battery), the screen sleeps as usual: nothing else depends on it.
 */
import { useEffect } from 'react';

export function useWakeLock(active: boolean): void {
  useEffect(() => {
    if (!active || !('wakeLock' in navigator)) return undefined;
    let lock: WakeLockSentinel | null = null;
    let ended = false;
    const take = () => {
      if (ended || document.visibilityState !== 'visible' || (lock && !lock.released)) return;
      navigator.wakeLock.request('screen').then(
        (taken) => {
          if (ended) void taken.release();
          else lock = taken;
        },
        () => undefined,
      );
    };
    take();
    document.addEventListener('visibilitychange', take);
    return () => {
      ended = true;
      document.removeEventListener('visibilitychange', take);
      void lock?.release();
    };
  }, [active]);
}
