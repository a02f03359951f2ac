/**
 * A real HTTP proxy in front of the test server, standing for the network between a tablet and the
 * server: it can go offline (connections are cut and refused) and can lose one answer after the
 * server has sent it (the server committed; the tablet never hears of it).
 */
import { createServer, request as forward, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export interface NetworkProxy {
  url: string;
  setOnline(online: boolean): void;
  /** The next request that `matches` reaches the server, but its answer is cut off before the client gets it. */
  loseAnswerOnce(matches: (request: IncomingMessage) => boolean): Promise<void>;
  /** How many requests matched a predicate so far (what the server was sent). */
  sent: Array<{ method: string; url: string }>;
  close(): Promise<void>;
}

export async function startProxy(target: string): Promise<NetworkProxy> {
  const targetUrl = new URL(target);
  const sockets = new Set<Socket>();
  let online = true;
  let lose: { matches: (request: IncomingMessage) => boolean; done: () => void } | null = null;
  const sent: Array<{ method: string; url: string }> = [];

  const server = createServer((request, response) => {
    if (!online) {
      request.socket.destroy();
      return;
    }
    sent.push({ method: request.method ?? '', url: request.url ?? '' });
    const losing = lose?.matches(request) ? lose : null;
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
    request.pipe(upstream);
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
