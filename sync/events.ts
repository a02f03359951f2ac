/**
 * The change stream (`GET /api/sync/stream`, server-sent events) read over fetch: EventSource cannot
 * send the bearer token. Reconnects with backoff for as long as it runs; every (re)connection is
 * reported, since changes made while disconnected were not announced.
 */
import { backoffMs, type ApiTransport } from './replay';

export interface ChangeStreamHandlers {
  /** Connected (again): pull everything that may have changed meanwhile. */
  onConnected(): void;
  /** The server named collections that changed. */
  onChange(collections: string[]): void;
  onDisconnected(reason: string): void;
  /**
   * The server answered and refused the stream (a 4xx: e.g. an outside consultant whose access ended).
   * It is reachable, so the tablet is not offline; the stream tries again later all the same.
   */
  onRefused?(reason: string): void;
}

/** The server refused the stream: it answered, so the connection is there. */
class StreamRefused extends Error {}

/** Splits an event-stream text into events (`event:` and `data:` lines, blank-line separated). */
export function parseEvents(buffer: string): { events: Array<{ event: string; data: string }>; rest: string } {
  const events: Array<{ event: string; data: string }> = [];
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0 || event !== 'message') events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}

export class ChangeStream {
  private controller: AbortController | null = null;
  private running = false;

  constructor(
    private readonly transport: ApiTransport,
    private readonly handlers: ChangeStreamHandlers,
  ) {}

  start() {
    if (this.running) return;
    this.running = true;
    void this.loop();
  }

  stop() {
    this.running = false;
    this.controller?.abort();
  }

  /** Drops the connection now and reconnects at once (the browser came back online). */
  reconnect() {
    this.controller?.abort();
  }

  private async loop() {
    let failures = 0;
    while (this.running) {
      this.controller = new AbortController();
      try {
        const response = await this.transport.openStream(this.controller.signal);
        if (response.status >= 400 && response.status < 500) throw new StreamRefused(`The change stream answered ${response.status}`);
        if (response.status !== 200 || !response.body) throw new Error(`The change stream answered ${response.status}`);
        failures = 0;
        await this.read(response.body);
        if (this.running) this.handlers.onDisconnected('The change stream ended.');
      } catch (error) {
        if (!this.running) return;
        const reason = error instanceof Error ? error.message : String(error);
        if (error instanceof StreamRefused && this.handlers.onRefused) this.handlers.onRefused(reason);
        else this.handlers.onDisconnected(reason);
        failures += 1;
      }
      if (this.running && failures > 0 && !this.controller.signal.aborted) await new Promise((resolve) => setTimeout(resolve, Math.min(backoffMs(failures - 1), 30_000)));
    }
  }

  private async read(body: ReadableStream<Uint8Array>) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        const parsed = parseEvents(buffer + decoder.decode(value, { stream: true }));
        buffer = parsed.rest;
        for (const { event, data } of parsed.events) {
          if (event === 'ready') this.handlers.onConnected();
          else if (event === 'change') this.handlers.onChange((JSON.parse(data) as { collections: string[] }).collections);
        }
      }
    } finally {
      reader.releaseLock();
    }
  }
}
