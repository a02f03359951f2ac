/**
 * The app's own ways out of the page: a reload into a new version, a sign-out's return to the sign-in
 * page, a switch of company, the way to a payment page. They are not a grower closing the app, so the
 * "leave the page?" question asked on closing with changes waiting where the browser cannot send them
 * with the app closed (background-sync.ts) is not asked for them: each either keeps the queue for the
 * page it opens or was confirmed on screen first.
 */
let onPurpose = false;

/** Leaves for `url` (or reloads, with none) without the closing question. */
export function leaveOnPurpose(url?: string): void {
  onPurpose = true;
  if (url === undefined) window.location.reload();
  else window.location.assign(url);
}

/** Whether the page is being left by the app itself (leaveOnPurpose). */
export function leavingOnPurpose(): boolean {
  return onPurpose;
}
