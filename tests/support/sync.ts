/** Pulling synced collections in tests, as the client does. */
import { expect } from 'vitest';
import type { TestServer } from './server';

export interface PulledDocument {
  id: string;
  _deleted: boolean;
  [field: string]: unknown;
}

/**
 * Pulls a collection from the start, page by page, keeping each document's latest version (by id),
 * until `done` holds or 5 s have passed. On PostgreSQL the pull holds rows back while any older
 * transaction of the cluster is in flight (another test file's, too), so a change may need a second round.
 */
export async function pullUntil<Document extends PulledDocument = PulledDocument>(
  server: TestServer,
  token: string,
  collection: string,
  done: (documents: Map<string, Document>) => boolean,
): Promise<Map<string, Document>> {
  const documents = new Map<string, Document>();
  let checkpoint = '';
  const deadline = Date.now() + 5000;
  for (;;) {
    const response = await server.request<{ documents: Document[]; checkpoint: string; has_more: boolean }>('GET', '/sync/pull', {
      token,
      query: { collection, checkpoint },
    });
    expect(response.status).toBe(200);
    for (const document of response.body.documents) documents.set(document.id, document);
    checkpoint = response.body.checkpoint;
    if (response.body.has_more) continue;
    if (done(documents) || Date.now() > deadline) return documents;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
