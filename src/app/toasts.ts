/**
 * Toasts (spec part 1 §2, §9: centred, 3000 ms, at most 360 px wide), through notistack. notistack
 * loads with the first toast, not with the first page: the sign-in page has a budget of JavaScript
 * (issue 13) and shows no toast before a grower acts. A toast asked for meanwhile waits for it, a few
 * milliseconds, and shows in order.
 */
import { useSyncExternalStore } from 'react';

export type ToastType = 'success' | 'danger' | 'warning' | 'info';

export interface Toast {
  message: string;
  type: ToastType;
}

let show: ((toast: Toast) => void) | null = null;
const waiting: Toast[] = [];
let wanted = false;
const listeners = new Set<() => void>();

/** Shows a toast; the first one brings the toaster (`Toaster` mounts it). */
export function showToast(toast: Toast): void {
  if (show) return show(toast);
  waiting.push(toast);
  if (!wanted) {
    wanted = true;
    listeners.forEach((listener) => listener());
  }
}

/** Called by the toaster once it is mounted: later toasts go straight to it, the waiting ones first. */
export function toasterReady(shower: (toast: Toast) => void): () => void {
  show = shower;
  for (const toast of waiting.splice(0)) shower(toast);
  return () => {
    if (show === shower) show = null;
  };
}

/** Whether a toast has been asked for, so the toaster should be on the page. */
export function useToasterWanted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => wanted,
  );
}
