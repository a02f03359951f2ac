/**
 * Builds the Fastify application: plugins, the guards and transaction wrapper every route goes
 * through, the domains' routes under /api, and the web app. `main.ts` runs it; tests build it on
 * their own database.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import helmet from 'helmet';
import { sql } from 'kysely';
import Fastify, { type FastifyPluginAsync, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { httpMessages } from '../common/messages/http';
import { healthAnswer } from '../common/schemas/session';
import type { ServerConfig } from './config';
import type { Database } from './db/database';
import { auditRoutes } from './domains/audit/routes';
import { authRoutes } from './domains/auth/routes';
import { createTokenService, type TokenService } from './domains/auth/tokens';
import { companyRoutes } from './domains/companies/routes';
import { batchRoutes } from './domains/batches/routes';
import { startCameraCaptures } from './domains/cameras/jobs';
import { cameraRoutes } from './domains/cameras/routes';
import { fileRoutes } from './domains/files/routes';
import { formRoutes } from './domains/forms/routes';
import { gridTemplateRoutes } from './domains/grid-templates/routes';
import { gridRoutes } from './domains/grids/routes';
import { modelRoutes } from './domains/models/routes';
import { roomRoutes } from './domains/rooms/routes';
import { scanRoutes } from './domains/scans/routes';
import { subgridRoutes } from './domains/subgrids/routes';
import { trayRoutes } from './domains/trays/routes';
import { problemRoutes } from './domains/problems/routes';
import { treatmentRoutes } from './domains/treatments/routes';
import { savedReportRoutes } from './domains/reports/saved-routes';
import { taskRoutes } from './domains/tasks/routes';
import { automationRoutes } from './domains/automations/routes';
import { startAutomationSchedules } from './domains/automations/schedules';
import { reportRoutes } from './domains/reports/routes';
import { type FileStore, localFileStore } from './domains/files/storage';
import { settingsRoutes } from './domains/settings/routes';
import { createCompanyCache, type CompanyCache } from './domains/companies/cache';
import { createOwnershipProofs } from './http/ownership-proofs';
import { type AnswerCache, createAnswerCache } from './http/answer-cache';
import { createChangeHub, type ChangeHub } from './domains/replication/changes';
import { syncRoutes } from './domains/replication/routes';
import { userRoutes } from './domains/users/routes';
import { consultantRoutes } from './domains/consultants/routes';
import { videoRoutes } from './domains/videos/routes';
import { weatherRoutes } from './domains/weather/routes';
import { paymentRoutes } from './domains/payments/routes';
import { commandRoutes } from './domains/commands/routes';
import { registerActedAt } from './http/acted-at';
import { registerClientIds } from './http/client-ids';
import { clientErrorHandler, errorHandler, frameworkErrors, HttpError, notFound } from './http/errors';
import { registerGuards } from './http/guards';
import { registerInputChecks } from './http/input';
import { answerSerializerCompiler } from './http/serializer';
import { registerOpenApi } from './http/openapi';
import type { App } from './http/route';
import { registerTransactions } from './http/transactions';
import { type JobQueue, startJobQueue } from './jobs/queue';
import { createMailer, type Mailer } from './mail/mailer';
import { startDeliveries } from './notifications/delivery-worker';
import { loadJwtSecret } from './secrets';

export interface AppDeps {
  config: ServerConfig;
  database: Database;
  tokens: TokenService;
  mailer: Mailer;
  /** The job queue (pg-boss on the server's database): notification deliveries, schedules. */
  jobs: JobQueue;
  changes: ChangeHub;
  companies: CompanyCache;
  /** The floor plan's answers (rooms with their grids and boxes), as sent. */
  floorAnswers: AnswerCache;
  files: FileStore;
  version: string;
}

/** A route the server answers, as declared: what the fuzz and tenancy tests walk, and the API description. */
export interface CatalogRoute {
  method: string;
  url: string;
  schema: RouteOptions['schema'];
  config: RouteOptions['config'];
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** Every route, in the order registered (HEAD routes Fastify adds for GET are left out). */
    routeCatalog: CatalogRoute[];
  }
}

export const VERSION = process.env.npm_package_version ?? '0.1.0';

export async function buildApp(config: ServerConfig, database: Database, logger: FastifyServerOptions['logger'] = true): Promise<App> {
  const app = Fastify({
    logger,
    bodyLimit: config.bodyLimitBytes,
    // A request's head and body must arrive within requestTimeoutMs; Node checks its connections for it every few seconds.
    requestTimeout: config.requestTimeoutMs,
    http: { headersTimeout: Math.min(60_000, config.requestTimeoutMs), connectionsCheckingInterval: Math.min(5_000, Math.max(250, config.requestTimeoutMs / 4)) },
    // Errors met before a route or outside Fastify answer in the envelope too (errors.ts).
    frameworkErrors,
    clientErrorHandler,
    trustProxy: process.env.TRUST_PROXY === '1',
    // Never log credentials.
    ...(logger === true ? { logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] } } : {}),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializerCompiler(config.checkAnswers));
  app.setErrorHandler(errorHandler);

  const tokens = createTokenService(config.jwtSecret ?? (await loadJwtSecret(database.db)));
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log });
  const changes = await createChangeHub(database);
  const files = localFileStore(join(config.dataDir, 'uploads'));
  const companies = createCompanyCache(changes);
  const floorAnswers = createAnswerCache(changes, ['rooms', 'grids', 'grid_boxes', 'plant_problems']);
  const ownershipProofs = createOwnershipProofs(changes);
  // Stopped first in onClose (below), while the database is still open.
  const jobs = await startJobQueue({ db: database.db, connectionString: database.kind === 'postgres' ? config.databaseUrl : undefined, log: app.log });
  await startDeliveries(jobs, { db: database.db, databaseKind: database.kind, mailer, config, log: app.log }).catch(async (error: unknown) => {
    await jobs.stop();
    throw error;
  });
  await startAutomationSchedules(jobs, { db: database.db, config, log: app.log });
  const cameraCaptures = await startCameraCaptures(jobs, { db: database.db, databaseKind: database.kind, files, config, log: app.log });
  app.decorate('deps', { config, database, tokens, mailer, jobs, changes, companies, floorAnswers, files, version: VERSION });
  const routeCatalog: CatalogRoute[] = [];
  app.decorate('routeCatalog', routeCatalog);
  app.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (method !== 'HEAD') routeCatalog.push({ method, url: route.url, schema: route.schema, config: route.config });
    }
  });

  // Security headers on every answer, errors included. helmet's middleware is built once, here
  // (@fastify/helmet built it again for every request: a fifth of a settings read's time).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The tablet's image classifier is ONNX Runtime Web's WebAssembly (src/features/scans/classifier.ts):
        // compiling it needs 'wasm-unsafe-eval' (it allows WebAssembly only, not JavaScript's eval).
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // Videos play from Blob URLs: a recording's preview, and stored videos fetched with the session's token.
        mediaSrc: ["'self'", 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        workerSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined)));
  await app.register(cors, { origin: config.corsOrigins, allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Acted-At'] });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => Object.assign(new Error(httpMessages.rateLimited), { statusCode: context.statusCode }),
  });
  // Answers over 1 kB travel compressed when the client accepts it (a tablet on a weak signal pulls pages of
  // thousands of documents). Brotli at quality 1: on JSON nearly the gain of quality 4 at a fraction of its
  // time, since answers are compressed as they go (a pull of 100,000 boxes on PGlite: 9.2 s at quality 4,
  // 8.1 s at 1). The web app's files come precompressed at the best quality (below).
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'], brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 1 } } });
  await app.register(formbody);
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: config.uploadLimitBytes, files: 10, fields: 200, fieldSize: config.bodyLimitBytes },
  });

  // Before the routes: it describes each as it is registered.
  await registerOpenApi(app, VERSION);

  registerGuards(app, { db: database.db, tokens, proofs: ownershipProofs });
  registerClientIds(app);
  registerActedAt(app);
  registerInputChecks(app);
  // A signed-in user's write drops what this instance keeps of their company's answers (a SuperAdmin
  // may act for any company: theirs drop every company's). Writes without a session (sign-in, sign-up,
  // password reset) change no floor plan.
  registerTransactions(app, database.db, (request) => {
    const claims = request.auth;
    if (!claims) return;
    const company = claims.user_role === 'SuperAdmin' ? undefined : claims.company_id;
    floorAnswers.drop(company);
    ownershipProofs.drop(company);
  });

  await app.register(
    async (api) => {
      // Asks the database too: a load balancer checking instances takes one that lost its database out (503).
      api.get('/health', { schema: { response: { 200: healthAnswer } }, config: { access: 'public' } }, async () => {
        await sql`SELECT 1`.execute(database.db).catch(() => {
          throw new HttpError(503, httpMessages.databaseUnreachable);
        });
        return { status: 'success' as const, database: database.kind, version: VERSION };
      });
      // Each domain's calls under its own tag in the API's description (the docs page lists them by area;
      // one list of every call stopped drawing past some 150).
      const area = (tag: string, routes: (app: App) => Promise<void>): FastifyPluginAsync =>
        async (domain) => {
          domain.addHook('onRoute', (route) => {
            route.schema = { ...route.schema, tags: [tag] };
          });
          await domain.register(routes);
        };
      await api.register(area('Sessions', authRoutes));
      await api.register(area('Users', userRoutes));
      await api.register(area('Consultants', consultantRoutes));
      await api.register(area('Companies', companyRoutes));
      await api.register(area('Settings', settingsRoutes));
      await api.register(area('Audit events', auditRoutes));
      await api.register(area('Files', fileRoutes));
      await api.register(area('Rooms', roomRoutes));
      await api.register(area('Grids', gridRoutes));
      await api.register(area('Scans', scanRoutes));
      await api.register(area('AI models', modelRoutes));
      await api.register(area('Videos', videoRoutes));
      await api.register(area('Batches', batchRoutes));
      await api.register(area('Sub-gridboxes and plant moves', subgridRoutes));
      await api.register(area('Grid templates', gridTemplateRoutes));
      await api.register(area('Trays', trayRoutes));
      await api.register(area('Forms', formRoutes));
      await api.register(area('Plant problems', problemRoutes));
      await api.register(area('Treatments', treatmentRoutes));
      await api.register(area('Reports', reportRoutes));
      await api.register(area('Saved reports', savedReportRoutes));
      await api.register(area('Tasks and comments', taskRoutes));
      await api.register(area('Automations and notifications', automationRoutes));
      await api.register(area('Automated cameras', cameraRoutes));
      await api.register(area('Weather', weatherRoutes));
      await api.register(area('Payments', paymentRoutes));
      await api.register(area('Assistant', commandRoutes));
      await api.register(area('Sync', syncRoutes), { prefix: '/sync' });
    },
    { prefix: '/api' },
  );

  const hasWebApp = existsSync(join(config.webRoot, 'index.html'));
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: config.webRoot,
      wildcard: false,
      // The build wrote .br and .gz copies of its text files (scripts/compress-assets.mjs).
      preCompressed: true,
      setHeaders(response, path) {
        // Hashed assets never change; the shell and the service worker must always be fresh.
        const immutable = path.includes(`${join(config.webRoot, 'assets')}`);
        response.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    // A missing file of the build (an old chunk after a deploy, a source map) is missing, not the app's shell.
    if (request.url.startsWith('/api') || request.url.startsWith('/assets/') || request.method !== 'GET' || !hasWebApp) {
      throw notFound(httpMessages.routeNotFound(request.method, request.url.split('?')[0] ?? ''));
    }
    // Client-side routes (/dashboard/…, /signIn) are the web app's.
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });

  app.addHook('onClose', async () => {
    await cameraCaptures.stop();
    await jobs.stop();
    companies.close();
    floorAnswers.close();
    ownershipProofs.close();
    await changes.close();
    mailer.close();
  });
  return app as unknown as App;
}
