// Stand-in page until the web app lands (issue "The web app"): says what the product is and where
// the API is, so `npm start` serves something a person can open.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { registerServiceWorker } from './register-service-worker';
import { startSyncForSession } from './sync/start';

function Placeholder() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '10vh auto', padding: 24, fontSize: 18, lineHeight: 1.5 }}>
      <h1 style={{ color: '#1f5f3f' }}>Grow Room</h1>
      <p>Cultivation management for grow rooms: rooms, grids, batches, scouting and treatments, on tablets that work offline.</p>
      <p>
        The server and its API are running. The screens are being built; until then, the API answers at <code>/api</code> (for
        example <a href="/api/health">/api/health</a>).
      </p>
    </main>
  );
}

const root = document.getElementById('root');
if (root) createRoot(root).render(<StrictMode><Placeholder /></StrictMode>);
registerServiceWorker();
void startSyncForSession(() => window.location.assign('/signIn'));
