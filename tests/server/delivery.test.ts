/**
 * Notification deliveries end to end (server/notifications): written in the triggering transaction,
 * taken by the real job queue (pg-boss on the test's database) and delivered to real local receivers:
 * an SMTP server (smtp-server) for e-mail with its CSV attachment, and an HTTPS server with a
 * certificate made for the test (trusted through WEBHOOK_CA_FILE) for the Slack and Teams webhooks.
 * Retries, refusals, the log, a restart mid-delivery, replays of one trigger, and (on PostgreSQL) two
 * server instances sharing the queue.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../server/db/schema';
import { jobIsLive } from '../../server/jobs/queue';
import { DELIVERY_QUEUE, deliveriesOf, enqueueDelivery, type OutgoingMessage, sendTest } from '../../server/notifications/delivery';
import { createTenant } from '../support/factories';
import { databaseKind, startServer, type TestServer } from '../support/server';
import { mimeParts, startSmtp, waitFor } from '../support/mail';

/** A certificate for 127.0.0.1 and localhost, made for this run. */
function makeCertificate(dir: string): { key: string; cert: string; certFile: string } {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout', keyFile, '-out', certFile,
  ], { stdio: 'ignore' });
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

interface Received {
  path: string;
  body: unknown;
  contentType: string | undefined;
  /** Whether the receiver answered it (false: the connection was gone before the answer). */
  answered: boolean;
}

type Answer = { status: number; body?: string } | 'hold';

/** An HTTPS receiver: each path answers as `routes` says; 'hold' keeps the request open until `release`. */
async function startReceiver(tls: { key: string; cert: string }) {
  const received: Received[] = [];
  const routes = new Map<string, (count: number) => Answer>();
  const held: Array<{ entry: Received; answer: (status: number, body?: string) => void }> = [];
  const server: Server = createServer(tls, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const entry: Received = { path, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown, contentType: request.headers['content-type'], answered: false };
      received.push(entry);
      const count = received.filter((other) => other.path === path).length;
      const decide = routes.get(path) ?? (() => ({ status: 200, body: 'ok' }));
      const answer = decide(count);
      const reply = (status: number, body = '') => {
        if (response.destroyed) return;
        entry.answered = true;
        response.writeHead(status, { 'content-type': 'text/plain' }).end(body);
      };
      if (answer === 'hold') held.push({ entry, answer: reply });
      else reply(answer.status, answer.body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    routes,
    held,
    at: (path: string) => received.filter((entry) => entry.path === path),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}


const deliveryRow = (db: Kysely<DB>, id: number) => db.selectFrom('notification_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Deliveries whose job is still to run or running: none means nothing more will be sent. */
async function pendingJobs(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('notification_deliveries as delivery')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(jobIsLive(DELIVERY_QUEUE, sql.ref('delivery.job_id')))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

let server: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let companyId: number;
let certDir: string;
let certFile: string;
let rule = 1000;

beforeAll(async () => {
  certDir = mkdtempSync(join(tmpdir(), 'grow-delivery-cert-'));
  const certificate = makeCertificate(certDir);
  certFile = certificate.certFile;
  receiver = await startReceiver(certificate);
  smtp = await startSmtp();
  server = await startServer({ smtpUrl: smtp.url, allowPrivateWebhooks: true, webhookCaFile: certFile, deliveryRetrySeconds: [1, 1, 1] });
  companyId = (await createTenant(server)).companyId;
});

afterAll(async () => {
  await server?.close();
  await receiver?.close();
  await smtp?.close();
  rmSync(certDir, { recursive: true, force: true });
});

/** Enqueues in a transaction of its own, as a triggering write would; a new rule id each time unless given. */
function enqueue(message: OutgoingMessage, triggerKey: string, notificationId: number = (rule += 1)) {
  return server.database.db.transaction().execute((trx) => enqueueDelivery(trx, { companyId, notificationId, triggerKey, actedAt: new Date(), message }));
}

const waitUntilSent = (id: number, db: Kysely<DB> = server.database.db) =>
  waitFor(`delivery ${id} sent`, async () => {
    const row = await deliveryRow(db, id);
    return row.status === 'sent' || row.status === 'failed' ? row : null;
  });

describe('e-mail', () => {
  it('arrives at the SMTP server for every recipient, with its HTML and its CSV attached', async () => {
    const csv = 'room,problems\r\nFlower 1,3\r\nVeg 2,0';
    const id = await enqueue(
      {
        method: 'email',
        recipients: ['grower@farm.test', ' manager@farm.test '],
        subject: 'Weekly report: Flower 1 needs a look',
        text: 'Top problems by room over the last 2 weeks.',
        html: '<h1>Weekly report</h1><p>Top problems by room over the last 2 weeks.</p>',
        attachment: { filename: 'weekly-report.csv', content: csv, contentType: 'text/csv' },
        link: { url: 'http://grow.test/reports/7', label: 'Open the report' },
      },
      'weekly:2026-W20',
    );
    expect(id).not.toBeNull();
    const message = await waitFor('the mail', () => smtp.messages.find((caught) => caught.raw.includes('Weekly report: Flower 1')));
    expect(message.recipients.sort()).toEqual(['grower@farm.test', 'manager@farm.test']);
    const parts = mimeParts(message.raw);
    const attachment = parts.find((part) => part.headers.get('content-disposition')?.startsWith('attachment'));
    expect(attachment?.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(attachment?.headers.get('content-disposition')).toContain('weekly-report.csv');
    expect(attachment?.content).toBe(csv);
    expect(parts.find((part) => part.headers.get('content-type')?.startsWith('text/html'))?.content).toContain('<h1>Weekly report</h1>');
    // The link is added to the text when the text does not hold it.
    expect(parts.find((part) => part.headers.get('content-type')?.startsWith('text/plain'))?.content).toBe(
      'Top problems by room over the last 2 weeks.\r\n\r\nOpen the report: http://grow.test/reports/7',
    );
    const row = await waitUntilSent(id as number);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null, next_try_at: null, recipient: 'grower@farm.test;manager@farm.test' });
  });
});

describe('webhooks', () => {
  it('a Slack message arrives in its documented shape: fallback text and blocks', async () => {
    const id = await enqueue(
      {
        method: 'Slack',
        webhookUrl: `${receiver.base}/slack`,
        subject: 'Aphids recorded in Flower 1',
        text: 'Severity 4 on box A3 <check> & treat',
        link: { url: 'http://grow.test/responses/12', label: 'Open the observation' },
      },
      'response:12',
    );
    await waitUntilSent(id as number);
    const [call] = receiver.at('/slack');
    expect(call?.contentType).toBe('application/json; charset=utf-8');
    expect(call?.body).toEqual({
      text: 'Aphids recorded in Flower 1\nSeverity 4 on box A3 &lt;check&gt; &amp; treat\n<http://grow.test/responses/12|Open the observation>',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Aphids recorded in Flower 1', emoji: true } },
        { type: 'section', text: { type: 'mrkdwn', text: 'Severity 4 on box A3 &lt;check&gt; &amp; treat' } },
        { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open the observation', emoji: true }, url: 'http://grow.test/responses/12' }] },
      ],
    });
  });

  it('a Teams message arrives in its documented shape: an Adaptive Card in a message (202 is success)', async () => {
    receiver.routes.set('/teams', () => ({ status: 202 }));
    const id = await enqueue(
      {
        method: 'Microsoft Teams',
        webhookUrl: `${receiver.base}/teams`,
        subject: 'Task done: spray Flower 1',
        text: 'Marked done by Ana Grower.',
        link: { url: 'http://grow.test/tasks/3', label: 'Open the task' },
      },
      'task:3:done',
    );
    expect(await waitUntilSent(id as number)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(receiver.at('/teams').map((call) => call.body)).toEqual([
      {
        type: 'message',
        attachments: [
          {
            contentType: 'application/vnd.microsoft.card.adaptive',
            contentUrl: null,
            content: {
              $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
              type: 'AdaptiveCard',
              version: '1.2',
              body: [
                { type: 'TextBlock', text: 'Task done: spray Flower 1', weight: 'Bolder', size: 'Medium', wrap: true },
                { type: 'TextBlock', text: 'Marked done by Ana Grower.', wrap: true },
              ],
              actions: [{ type: 'Action.OpenUrl', title: 'Open the task', url: 'http://grow.test/tasks/3' }],
            },
          },
        ],
      },
    ]);
  });

  it('a receiver answering 500 gets the message on the retry; the log shows the failed try, then sent', async () => {
    receiver.routes.set('/flaky', (count) => (count === 1 ? { status: 500, body: 'upstream down' } : 'hold'));
    const id = (await enqueue({ method: 'Slack', webhookUrl: `${receiver.base}/flaky`, subject: 'Mildew', text: 'Seen in Veg 2' }, 'response:40')) as number;
    // While the second try is at the receiver, the log shows the first one's failure and this try's time.
    const second = await waitFor('the second try', () => receiver.held.find((hold) => hold.entry.path === '/flaky'));
    const during = await deliveryRow(server.database.db, id);
    expect(during).toMatchObject({ status: 'retrying', attempts: 1, last_error: 'Slack answered 500: upstream down', sent_at: null });
    expect(during.next_try_at).toBeInstanceOf(Date);
    const [logged] = await deliveriesOf(server.database.db, companyId, { notificationId: during.notification_id, limit: 10 });
    expect(logged).toMatchObject({ id, status: 'retrying', attempts: 1, lastError: 'Slack answered 500: upstream down', nextTryAt: during.next_try_at });
    second.answer(200, 'ok');
    const after = await waitUntilSent(id);
    expect(after).toMatchObject({ status: 'sent', attempts: 2, last_error: 'Slack answered 500: upstream down', next_try_at: null });
    expect(after.sent_at).toBeInstanceOf(Date);
    expect(receiver.at('/flaky').map((call) => call.answered)).toEqual([true, true]);
  });

  it('a 4xx other than 429 is not tried again: failed, with the answer', async () => {
    receiver.routes.set('/gone', () => ({ status: 404, body: 'no_service' }));
    const id = (await enqueue({ method: 'Slack', webhookUrl: `${receiver.base}/gone`, subject: 'x', text: 'y' }, 'response:41')) as number;
    expect(await waitUntilSent(id)).toMatchObject({ status: 'failed', attempts: 1, last_error: 'Slack answered 404: no_service', next_try_at: null, sent_at: null });
    await waitFor('no job left', async () => (await pendingJobs(server.database.db)) === 0);
    expect(receiver.at('/gone')).toHaveLength(1);
  });

  it('a receiver that keeps failing is tried DELIVERY_RETRY_SECONDS times more, then failed', async () => {
    receiver.routes.set('/down', () => ({ status: 503, body: 'maintenance' }));
    const id = (await enqueue({ method: 'Microsoft Teams', webhookUrl: `${receiver.base}/down`, subject: 'x', text: 'y' }, 'response:42')) as number;
    expect(await waitUntilSent(id)).toMatchObject({ status: 'failed', attempts: 4, last_error: 'Microsoft Teams answered 503: maintenance', next_try_at: null });
    expect(receiver.at('/down')).toHaveLength(4);
  });
});

describe('once per trigger', () => {
  it('the same rule and trigger key enqueued twice deliver once', async () => {
    const message: OutgoingMessage = { method: 'Slack', webhookUrl: `${receiver.base}/once`, subject: 'Keyword "thrips" in Scouting', text: 'Flower 1, box B2' };
    const notificationId = (rule += 1);
    const first = await enqueue(message, 'response:77', notificationId);
    const replay = await enqueue(message, 'response:77', notificationId);
    expect(first).not.toBeNull();
    expect(replay).toBeNull();
    // Another rule firing on the same change is a delivery of its own.
    const otherRule = await enqueue(message, 'response:77');
    expect(otherRule).not.toBeNull();
    await waitUntilSent(first as number);
    await waitUntilSent(otherRule as number);
    await waitFor('no job left', async () => (await pendingJobs(server.database.db)) === 0);
    expect(receiver.at('/once')).toHaveLength(2);
  });

  it('a message with nowhere to go is logged as failed without failing the triggering write', async () => {
    const id = (await enqueue({ method: 'email', recipients: [' ', ''], subject: 'x', text: 'y' }, 'response:79')) as number;
    expect(await deliveryRow(server.database.db, id)).toMatchObject({ status: 'failed', attempts: 0, last_error: 'The e-mail has no recipient.', job_id: null });
  });

  it('a delivery written in a transaction that rolls back is never sent', async () => {
    const failed = await server.database.db
      .transaction()
      .execute(async (trx) => {
        await enqueueDelivery(trx, { companyId, notificationId: (rule += 1), triggerKey: 'response:78', actedAt: new Date(), message: { method: 'Slack', webhookUrl: `${receiver.base}/rolled-back`, subject: 'x', text: 'y' } });
        throw new Error('the triggering write failed');
      })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(await pendingJobs(server.database.db)).toBe(0);
    const rows = await server.database.db.selectFrom('notification_deliveries').select('id').where('trigger_key', '=', 'response:78').execute();
    expect(rows).toEqual([]);
    expect(receiver.at('/rolled-back')).toEqual([]);
  });
});

describe('send a test, and the log', () => {
  it('a test goes out at once under a key of its own, and the log lists it with the webhook shown by its origin only', async () => {
    const notificationId = (rule += 1);
    const message: OutgoingMessage = { method: 'Slack', webhookUrl: `${receiver.base}/services/T000/B000/secret-part`, subject: 'Test from Grow Room', text: 'This automation works.' };
    const first = await sendTest(server.database.db, companyId, message, notificationId);
    const second = await sendTest(server.database.db, companyId, message, notificationId);
    await waitUntilSent(first);
    await waitUntilSent(second);
    expect(receiver.at('/services/T000/B000/secret-part')).toHaveLength(2);
    const log = await deliveriesOf(server.database.db, companyId, { notificationId, limit: 50 });
    expect(log.map((entry) => entry.id)).toEqual([second, first]);
    expect(log[0]).toMatchObject({ notificationId, method: 'Slack', recipient: `${receiver.base}/…`, subject: 'Test from Grow Room', status: 'sent', attempts: 1, lastError: null, attachmentName: null });
    expect(log[0]?.triggerKey).toMatch(/^test:[0-9a-f-]{36}$/);
    // Another company reads none of them.
    const other = await createTenant(server);
    expect(await deliveriesOf(server.database.db, other.companyId, { limit: 50 })).toEqual([]);
  });
});

describe('a private address without ALLOW_PRIVATE_WEBHOOKS', () => {
  it('is refused, and its log says why; the receiver hears nothing', async () => {
    const strict = await startServer({ allowPrivateWebhooks: false, webhookCaFile: certFile, deliveryRetrySeconds: [1] });
    try {
      const tenant = await createTenant(strict);
      const write = (url: string, key: string) =>
        enqueueDelivery(strict.database.db, { companyId: tenant.companyId, notificationId: 1, triggerKey: key, actedAt: new Date(), message: { method: 'Slack', webhookUrl: url, subject: 'x', text: 'y' } });
      const byAddress = (await write(`${receiver.base}/private`, 'a')) as number;
      const byName = (await write(`${receiver.base.replace('127.0.0.1', 'localhost')}/private`, 'b')) as number;
      const metadata = (await write('https://169.254.169.254/latest/meta-data/', 'c')) as number;
      const plain = (await write(`${receiver.base.replace('https:', 'http:')}/private`, 'd')) as number;
      expect(await waitUntilSent(byAddress, strict.database.db)).toMatchObject({
        status: 'failed',
        attempts: 1,
        last_error: 'Refused: 127.0.0.1 is a loopback address; the server only calls public internet addresses.',
      });
      expect((await waitUntilSent(byName, strict.database.db)).last_error).toMatch(/^Refused: localhost \((127\.0\.0\.1|::1)\) is a loopback address;/);
      expect((await waitUntilSent(metadata, strict.database.db)).last_error).toBe('Refused: 169.254.169.254 is a link-local address; the server only calls public internet addresses.');
      expect((await waitUntilSent(plain, strict.database.db)).last_error).toBe('The address must start with https://.');
      expect(receiver.at('/private')).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe('a restart', () => {
  it('a delivery interrupted by a shutdown runs after the restart, once', async () => {
    receiver.routes.set('/restart', (count) => (count === 1 ? 'hold' : { status: 200, body: 'ok' }));
    const id = (await enqueue({ method: 'Slack', webhookUrl: `${receiver.base}/restart`, subject: 'Botrytis', text: 'Flower 3' }, 'response:90')) as number;
    await waitFor('the first try at the receiver', () => receiver.held.find((hold) => hold.entry.path === '/restart'));
    await server.stop();
    // The interrupted try is not a failure of the receiver: the log is as it was.
    expect(await deliveryRow(server.database.db, id)).toMatchObject({ status: 'queued', attempts: 0, last_error: null });
    await server.resume();
    expect(await waitUntilSent(id)).toMatchObject({ status: 'sent', attempts: 1 });
    await waitFor('no job left', async () => (await pendingJobs(server.database.db)) === 0);
    expect(receiver.at('/restart').map((call) => call.answered)).toEqual([false, true]);
  });

  it('a delivery whose job is gone (its tries used up by crashes) is queued again at start', async () => {
    // Written while no server runs, and its job failed for good before any worker took it, as after
    // repeated crashes mid-try.
    await server.stop();
    const id = (await enqueue({ method: 'Slack', webhookUrl: `${receiver.base}/orphan`, subject: 'x', text: 'y' }, 'response:91')) as number;
    const { job_id: jobId } = await deliveryRow(server.database.db, id);
    await sql`UPDATE pgboss.job SET state = 'failed' WHERE name = ${DELIVERY_QUEUE} AND id = ${jobId}`.execute(server.database.db);
    await server.resume();
    const row = await waitUntilSent(id);
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
    expect(row.job_id).not.toBe(jobId);
    expect(receiver.at('/orphan')).toHaveLength(1);
  });
});

describe.skipIf(databaseKind !== 'postgres')('two server instances on one database', () => {
  it('share the queue: each delivery is made once', async () => {
    const second = await startServer({ databaseUrl: server.config.databaseUrl, smtpUrl: smtp.url, allowPrivateWebhooks: true, webhookCaFile: certFile, deliveryRetrySeconds: [1] });
    try {
      const ids = await server.database.db.transaction().execute(async (trx) => {
        const made: number[] = [];
        for (let n = 0; n < 60; n += 1) {
          made.push((await enqueueDelivery(trx, { companyId, notificationId: 5, triggerKey: `fleet:${n}`, actedAt: new Date(), message: { method: 'Slack', webhookUrl: `${receiver.base}/fleet/${n}`, subject: 'x', text: 'y' } })) as number);
        }
        return made;
      });
      for (const id of ids) await waitUntilSent(id);
      await waitFor('no job left', async () => (await pendingJobs(server.database.db)) === 0);
      const paths = receiver.received.filter((call) => call.path.startsWith('/fleet/')).map((call) => call.path);
      expect(paths).toHaveLength(60);
      expect(new Set(paths).size).toBe(60);
    } finally {
      await second.close();
    }
  });
});
