/**
 * Starts the sync worker when the page opens with a session (spec: work resumes after a reload or a
 * crash). The backend address follows the page's host (spec part 1 §1); pull checkpoints are kept per
 * server and company, so another company's session on this tablet starts its own.
 */
import { backendUrl } from '../api/client';
import { localSessionStore } from '../api/session';
import { startSyncWorker } from './sync-store';

export async function startSyncForSession(onSignedOut: () => void) {
  const session = localSessionStore();
  const current = await session.get();
  if (!current) return null;
  const baseURL = backendUrl(window.location.host, import.meta.env);
  return startSyncWorker({ baseURL, replicationIdentifier: `${baseURL}|company-${current.company_id}` }, session, onSignedOut);
}
