/**
 * What every panel over the screen does (the box panel, the pest-pressure map's panel, the batches'
 * sheets): focus moves into it when it opens, and again when it shows another record (keyboards and
 * screen readers start there), Escape closes it, and focus goes back where it was when it closes.
 */
import { type RefObject, useEffect, useRef } from 'react';

export function useDialog<T extends HTMLElement>(onClose: () => void, shows: unknown = null): RefObject<T | null> {
  const panel = useRef<T>(null);
  // Callers pass a new function each render: the latest one closes.
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus();
    };
  }, []);
  useEffect(() => panel.current?.focus(), [shows]);
  return panel;
}
