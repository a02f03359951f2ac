/**
 * The web app: routes (src/routes, file-based, one chunk per screen), toasts, and the app's services.
 * The service worker is registered after load; the sync worker starts after the first paint when the
 * page opens with a session (and after a sign-in).
 */
import { RouterProvider, createRouter } from '@tanstack/react-router';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import './app/app.css';
// Before any screen: the interface's language, and the English texts features register as they load.
import './i18n/i18n';
import { listenForInstallOffer } from './app/install';
import { lazyChunk } from './app/lazy-chunk';
import { useToasterWanted } from './app/toasts';
import { apiContext, session, startSync } from './app/services';
import { Loading } from './features/shell/Loading';
import { registerServiceWorker } from './register-service-worker';
import { routeTree } from './routeTree.gen';

// The public camera page of a phone mounted in a room (issue 17) keeps its own small store: it never
// opens the app's local database or sync worker, even in a browser that has a session.
const cameraPage = location.pathname === '/camera';

// A tablet with a session opens its local database at once, while React and the screen's code load:
// an offline cold start of a room waits on it.
if (session.isLoggedIn() && !cameraPage) void apiContext();

// The toaster (notistack) comes with the first toast: the first page does without it (src/app/toasts.ts).
const toaster = lazyChunk(async () => (await import('./app/Toaster')).Toaster);
function Toasts() {
  return useToasterWanted() ? (
    <Suspense fallback={null}>
      <toaster.Component />
    </Suspense>
  ) : null;
}

const router = createRouter({ routeTree, defaultPendingComponent: Loading, defaultPreload: 'intent' });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={router} />
      <Toasts />
    </StrictMode>,
  );
}
registerServiceWorker();
listenForInstallOffer();
// The local database and the sync worker load after the first paint (src/app/services.ts), and only
// with a session on this tablet.
if (!cameraPage) requestAnimationFrame(() => setTimeout(() => void startSync(), 0));
