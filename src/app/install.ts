/**
 * Installing the app to the tablet's home screen (issue 19). Chromium-based browsers offer it with a
 * `beforeinstallprompt` event, which the page keeps (it may come before React paints) and the
 * "Install this app" button replays when the grower taps it. Safari (iPad) and Firefox send no such
 * event: there the offer does not show, and the README says how to add the app by hand. An app
 * already opened from the home screen (display-mode standalone) offers nothing.
 */
import { useSyncExternalStore } from 'react';

/** Chromium's install prompt event (not in TypeScript's DOM types). */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let offered: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** Starts listening for the browser's offer: called once, at the page's start. */
export function listenForInstallOffer(): void {
  if (typeof window === 'undefined') return;
  window.addEventListener('beforeinstallprompt', (event) => {
    // Kept, not shown at once: the grower installs when they choose, from the button.
    event.preventDefault();
    offered = event as InstallPromptEvent;
    changed();
  });
  window.addEventListener('appinstalled', () => {
    offered = null;
    changed();
  });
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Whether the browser offers to install the app now. */
export function useInstallOffer(): boolean {
  return useSyncExternalStore(subscribe, () => offered !== null);
}

/** Shows the browser's install dialog; answers whether the grower installed the app. */
export async function install(): Promise<boolean> {
  const event = offered;
  if (!event) return false;
  offered = null;
  changed();
  await event.prompt();
  return (await event.userChoice).outcome === 'accepted';
}
