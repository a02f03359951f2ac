/**
 * notistack's provider, in a chunk of its own that loads with the first toast (toasts.ts). Decision:
 * at the bottom, not at the top: there they covered the sync indicator and the box panel's title and
 * first buttons (issue 13); nothing is fixed at the bottom, the screens keep room below their last
 * control (app.css), and taps pass through a toast.
 */
import { enqueueSnackbar, SnackbarProvider } from 'notistack';
import { useEffect } from 'react';
import { toasterReady } from './toasts';

export function Toaster() {
  useEffect(() => toasterReady((toast) => enqueueSnackbar(toast.message, { variant: toast.type === 'danger' ? 'error' : toast.type })), []);
  return <SnackbarProvider anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }} autoHideDuration={3000} maxSnack={3} style={{ maxWidth: 360 }} />;
}
