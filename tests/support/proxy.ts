/**
 * A real HTTP proxy in front of the test server, standing for the network between a tablet and the
 * server: it can go offline (connections are cut and refused) and can lose one answer after the
 * server has sent it (the server committed; the tablet never hears of it).
 */
import { createServer, request as forward, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A call as the proxy sees it. A push (`POST /api/sync/push`) carries several spec calls: each counts
 * as a call of its own (`pushed: true`), so tests can speak of the spec call whichever way it travelled.
 */
export interface SentCall {
  method: string;
  url: string;
  pushed?: boolean;
}

export interface NetworkProxy {
  url: string;
  setOnline(online: boolean): void;
  /**
   * The next request in which a call `matches` reaches the server, but its answer is cut off before the
   * client gets it (for a push: the whole push's answer).
   */
  loseAnswerOnce(matches: (call: SentCall) => boolean): Promise<void>;
  /** The calls the server was sent so far. */
  sent: SentCall[];
  close(): Promise<void>;
}

export async function startProxy(target: string): Promise<NetworkProxy> {
  const targetUrl = new URL(target);
  const sockets = new Set<Socket>();
  let online = true;
  let lose: { matches: (call: SentCall) => boolean; done: () => void } | null = null;
  const sent: SentCall[] = [];

  /** The spec calls a request carries: itself, or a push's entries. */
  const callsOf = (request: IncomingMessage, body: Buffer): SentCall[] => {
    const call = { method: request.method ?? '', url: request.url ?? '' };
    if (call.method !== 'POST' || call.url.split('?')[0] !== '/api/sync/push') return [call];
    try {
      const { entries } = JSON.parse(body.toString('utf8')) as { entries: Array<{ method: string; path: string; query?: Record<string, unknown> }> };
      return entries.map((entry) => {
        const query = new URLSearchParams(Object.entries(entry.query ?? {}).map(([key, value]) => [key, String(value)])).toString();
        return { method: entry.method, url: `/api${entry.path}${query ? `?${query}` : ''}`, pushed: true };
      });
    } catch {
      return [call];
    }
  };

  const server = createServer((request, response) => {
    if (!online) {
      request.socket.destroy();
      return;
    }
    // The whole body first: a push is matched by the calls inside it.
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (!online) {
        request.socket.destroy();
        return;
      }
      const body = Buffer.concat(chunks);
      const calls = callsOf(request, body);
      sent.push(...calls);
      const losing = lose && calls.some((call) => lose?.matches(call)) ? lose : null;
      if (losing) lose = null;
      const upstream = forward(
        { host: targetUrl.hostname, port: targetUrl.port, method: request.method, path: request.url, headers: request.headers },
        (answer) => {
          if (losing) {
            // Read the whole answer (the server is done), then cut the client off without it.
            answer.resume();
            answer.on('end', () => {
              request.socket.destroy();
              losing.done();
            });
            return;
          }
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => request.socket.destroy());
      upstream.end(body);
    });
  });
  server.on('connection', (socket) => {
    if (!online) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    setOnline(value) {
      online = value;
      if (!value) for (const socket of sockets) socket.destroy();
    },
    loseAnswerOnce(matches) {
      return new Promise<void>((resolve) => {
        lose = { matches, done: resolve };
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
