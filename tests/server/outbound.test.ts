/**
 * The check on outgoing calls to addresses users type in (server/http/outbound.ts): which addresses are
 * refused and why, which URLs are refused before any connection, and how a call to a receiver behaves
 * (no redirects followed, an answer's size capped, a deadline) against real local receivers.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OutboundRefusedError, postJson, refusalOf, resolveOutboundTarget } from '../../server/http/outbound';

describe('addresses the server may not call', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.255.0.9', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['10.1.2.3', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.20', 'a private address'],
    ['fc00::1', 'a private address'],
    ['fd12:3456::1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['100.127.255.254', 'a carrier-grade NAT address'],
    ['0.0.0.0', 'an unspecified address'],
    ['0.1.2.3', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['255.255.255.255', 'a reserved address'],
    ['198.18.0.1', 'a reserved address'],
    ['192.0.2.10', 'a reserved address'],
    ['2001:db8::1', 'a reserved address'],
    ['::ffff:127.0.0.1', 'a loopback address inside an IPv6 address'],
    ['::ffff:7f00:1', 'a loopback address inside an IPv6 address'],
    ['::ffff:169.254.169.254', 'a link-local address inside an IPv6 address'],
    ['::ffff:10.0.0.1', 'a private address inside an IPv6 address'],
    ['64:ff9b::a9fe:a9fe', 'a link-local address inside an IPv6 address'],
    ['2002:c0a8:0101::1', 'a private address inside an IPv6 address'],
    ['[::1]', 'a loopback address'],
  ])('%s is %s', (address, refusal) => {
    expect(refusalOf(address)).toBe(refusal);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '11.0.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    '%s is public',
    (address) => {
      expect(refusalOf(address)).toBeNull();
    },
  );

  it('a host name is not an address', () => {
    expect(refusalOf('hooks.slack.com')).toBe('not an IP address');
  });
});

describe('URLs refused before any connection', () => {
  const strict = { allowPrivate: false };

  it.each([
    ['not a URL', 'The address is not a valid URL.'],
    ['ftp://files.example.com/hook', 'The address must start with https://.'],
    ['http://hooks.slack.com/services/T/B/X', 'The address must start with https://.'],
    ['https://127.0.0.1/hook', 'Refused: 127.0.0.1 is a loopback address; the server only calls public internet addresses.'],
    ['https://169.254.169.254/latest/meta-data/', 'Refused: 169.254.169.254 is a link-local address; the server only calls public internet addresses.'],
    ['https://10.0.0.7:8443/hook', 'Refused: 10.0.0.7 is a private address; the server only calls public internet addresses.'],
    ['https://[::1]/hook', 'Refused: ::1 is a loopback address; the server only calls public internet addresses.'],
    ['https://[::ffff:7f00:1]/hook', 'Refused: ::ffff:7f00:1 is a loopback address inside an IPv6 address; the server only calls public internet addresses.'],
  ])('%s', async (url, message) => {
    const refused = await resolveOutboundTarget(url, strict).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OutboundRefusedError);
    expect((refused as Error).message).toBe(message);
  });

  it('a host name whose DNS answers a loopback address is refused, naming both', async () => {
    const refused = await resolveOutboundTarget('https://localhost:9/hook', strict).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OutboundRefusedError);
    expect((refused as Error).message).toMatch(/^Refused: localhost \((127\.0\.0\.1|::1)\) is a loopback address;/);
  });

  it('a public address passes, and is the address connected to', async () => {
    const target = await resolveOutboundTarget('https://8.8.8.8/hook', strict);
    expect(target.addresses).toEqual([{ address: '8.8.8.8', family: 4 }]);
  });

  it('with ALLOW_PRIVATE_WEBHOOKS, private addresses and plain http pass', async () => {
    const target = await resolveOutboundTarget('http://127.0.0.1:9/hook', { allowPrivate: true });
    expect(target.addresses).toEqual([{ address: '127.0.0.1', family: 4 }]);
    await expect(resolveOutboundTarget('ftp://127.0.0.1/hook', { allowPrivate: true })).rejects.toThrow('The address must start with https://.');
  });
});

describe('a call to a receiver', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  async function receiver(handle: (request: IncomingMessage, response: ServerResponse, body: string) => void): Promise<{ url: string; bodies: string[] }> {
    const bodies: string[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        bodies.push(body);
        handle(request, response, body);
      });
    });
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies };
  }

  const open = { allowPrivate: true };

  it('posts the payload as JSON and answers the status and the answer', async () => {
    const target = await receiver((request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' }).end(request.headers['content-type']);
    });
    const answer = await postJson(target.url, { text: 'Aphids in Flower 1' }, open);
    expect(answer).toEqual({ status: 200, body: 'application/json; charset=utf-8', retryAfterSeconds: null });
    expect(target.bodies.map((body) => JSON.parse(body) as unknown)).toEqual([{ text: 'Aphids in Flower 1' }]);
  });

  it('answers a redirect without following it', async () => {
    const inward = await receiver((_request, response) => response.writeHead(200).end('reached'));
    const outer = await receiver((_request, response) => response.writeHead(302, { location: inward.url }).end());
    const answer = await postJson(outer.url, { text: 'x' }, open);
    expect(answer.status).toBe(302);
    expect(inward.bodies).toEqual([]);
  });

  it('reads no more than the cap of a large answer', async () => {
    const target = await receiver((_request, response) => {
      response.writeHead(500);
      // 8 MB, written as fast as the socket takes it; the call stops reading after 1 kB.
      const block = Buffer.alloc(64 * 1024, 'x');
      let left = 128;
      const write = () => {
        while (left > 0) {
          left -= 1;
          if (!response.write(block)) return void response.once('drain', write);
        }
        response.end();
      };
      write();
    });
    const answer = await postJson(target.url, {}, { ...open, maxResponseBytes: 1024 });
    expect(answer.status).toBe(500);
    expect(answer.body).toBe('x'.repeat(1024));
  });

  it('gives up on a receiver that does not answer within the deadline', async () => {
    const target = await receiver(() => undefined);
    await expect(postJson(target.url, {}, { ...open, timeoutMs: 300 })).rejects.toThrow('No answer within the time allowed');
  });

  it('stops when its signal aborts (the server shutting down)', async () => {
    const target = await receiver(() => undefined);
    const stopping = new AbortController();
    const call = postJson(target.url, {}, open, stopping.signal);
    await new Promise((resolve) => setTimeout(resolve, 50));
    stopping.abort(new Error('The server is stopping'));
    await expect(call).rejects.toThrow('The server is stopping');
  });

  it('reads Retry-After from a 429', async () => {
    const target = await receiver((_request, response) => response.writeHead(429, { 'retry-after': '120' }).end('rate_limited'));
    expect(await postJson(target.url, {}, open)).toEqual({ status: 429, body: 'rate_limited', retryAfterSeconds: 120 });
  });

  it('refuses a local receiver without ALLOW_PRIVATE_WEBHOOKS, and it hears nothing', async () => {
    const target = await receiver((_request, response) => response.writeHead(200).end());
    await expect(postJson(target.url.replace('http:', 'https:'), {}, { allowPrivate: false })).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(target.bodies).toEqual([]);
  });
});
