/**
 * Server settings, read once from the environment (README "Settings"). Nothing here is secret except
 * JWT_SECRET, which is optional: without it the secret is generated once and kept in the database, and
 * Stripe's key and webhook secret (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET), optional too.
 */
import { resolve } from 'node:path';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… for a PostgreSQL server; undefined for the embedded PGlite database under dataDir. */
  databaseUrl: string | undefined;
  jwtSecret: string | undefined;
  /** smtp://… or smtps://… (SMTP_URL): mail goes out through it; without it, mail is written to DATA_DIR/mail/. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /**
   * ALLOW_PRIVATE_WEBHOOKS=1: notification webhooks may call private, loopback and link-local addresses and
   * plain http (a receiver on the operator's own network; tests). Off: public https addresses only.
   */
  allowPrivateWebhooks: boolean;
  /** WEBHOOK_CA_FILE: PEM certificates trusted for webhook calls beside the system's (an internal CA; tests). */
  webhookCaFile: string | undefined;
  /** DELIVERY_RETRY_SECONDS: the waits before each new try of a failed notification delivery; their count is the number of retries. */
  deliveryRetrySeconds: number[];
  /**
   * CAMERA_MIN_INTERVAL_SECONDS: the shortest interval an automated camera may have (5 minutes). Tests
   * and demos set a few seconds; a camera photographed every few seconds fills the disk fast.
   */
  cameraMinIntervalSeconds: number;
  /** CAMERA_RETENTION_DAYS: camera images older than this (by when they were taken) are removed with their files; 0 keeps them. */
  cameraRetentionDays: number;
  /** CAMERA_DEVICE_RATE_LIMIT: calls a minute per address to the phone cameras' calls (a phone back online sends its backlog in a row). */
  cameraDeviceRateLimitPerMinute: number;
  publicUrl: string;
  corsOrigins: string[];
  uploadLimitBytes: number;
  bodyLimitBytes: number;
  /** A request must arrive whole within this (408 after); a client that stalls mid-body does not hold its connection for ever. */
  requestTimeoutMs: number;
  loginRateLimitPerMinute: number;
  resetRateLimitPerMinute: number;
  /** Demo company on the first start of an empty database (off in tests). */
  seedDemo: boolean;
  /** Serve the built web app from this folder, when it exists. */
  webRoot: string;
  logLevel: string;
  /** Prove every answer against its response schema before it leaves (tests; `CHECK_ANSWERS=1`), not only write it by it. */
  checkAnswers: boolean;
  /**
   * Open-Meteo's services the weather calls use (server/domains/weather): OPEN_METEO_FORECAST_URL,
   * OPEN_METEO_ARCHIVE_URL and OPEN_METEO_GEOCODING_URL, base addresses without `/v1/…`. An operator
   * may point them at a self-hosted Open-Meteo.
   */
  openMeteoForecastUrl: string;
  openMeteoArchiveUrl: string;
  openMeteoGeocodingUrl: string;
  /**
   * Stripe (server/domains/payments): STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_MONTHLY and
   * STRIPE_PRICE_YEARLY. Billing is set up only when all four are (`stripeConfigured`); otherwise the
   * payment screens say so and nothing is charged. The key and the webhook secret are secrets: never logged.
   */
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  stripePriceMonthly: string | undefined;
  stripePriceYearly: string | undefined;
  /** STRIPE_API_URL: Stripe's API base address (a stand-in or a proxy may take its place); Stripe's own by default. */
  stripeApiUrl: string;
}

/** Whether billing is set up: Stripe's key, the webhook secret and both plans' prices are all set. */
export const stripeConfigured = (config: ServerConfig) => Boolean(config.stripeSecretKey && config.stripeWebhookSecret && config.stripePriceMonthly && config.stripePriceYearly);

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.some((value) => !Number.isFinite(value) || value <= 0)) throw new Error(`${name} must be positive numbers of seconds separated by commas, got "${raw}"`);
  return values;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = integer(env, 'PORT', 8080);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Grow Room <no-reply@localhost>',
    allowPrivateWebhooks: env.ALLOW_PRIVATE_WEBHOOKS === '1',
    webhookCaFile: env.WEBHOOK_CA_FILE || undefined,
    // 30 s, 2 min, 10 min, 1 h, 6 h: a receiver down for an afternoon still gets the message.
    deliveryRetrySeconds: seconds(env, 'DELIVERY_RETRY_SECONDS', [30, 120, 600, 3600, 21_600]),
    cameraMinIntervalSeconds: Math.max(1, integer(env, 'CAMERA_MIN_INTERVAL_SECONDS', 300)),
    cameraRetentionDays: integer(env, 'CAMERA_RETENTION_DAYS', 90),
    cameraDeviceRateLimitPerMinute: integer(env, 'CAMERA_DEVICE_RATE_LIMIT', 120),
    publicUrl,
    corsOrigins: (env.CORS_ORIGINS ?? publicUrl).split(',').map((origin) => origin.trim()).filter(Boolean),
    uploadLimitBytes: integer(env, 'UPLOAD_LIMIT_BYTES', 10 * 1024 * 1024),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024),
    // Long enough for a photo at the upload limit over a weak signal (10 MB at ~100 kB/s).
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 120_000),
    loginRateLimitPerMinute: integer(env, 'LOGIN_RATE_LIMIT', 10),
    resetRateLimitPerMinute: integer(env, 'RESET_RATE_LIMIT', 5),
    seedDemo: env.SEED_DEMO !== '0',
    webRoot: resolve(env.WEB_ROOT ?? './dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    checkAnswers: env.CHECK_ANSWERS === '1',
    openMeteoForecastUrl: (env.OPEN_METEO_FORECAST_URL || 'https://api.open-meteo.com').replace(/\/+$/, ''),
    openMeteoArchiveUrl: (env.OPEN_METEO_ARCHIVE_URL || 'https://archive-api.open-meteo.com').replace(/\/+$/, ''),
    openMeteoGeocodingUrl: (env.OPEN_METEO_GEOCODING_URL || 'https://geocoding-api.open-meteo.com').replace(/\/+$/, ''),
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
    stripePriceMonthly: env.STRIPE_PRICE_MONTHLY || undefined,
    stripePriceYearly: env.STRIPE_PRICE_YEARLY || undefined,
    stripeApiUrl: (env.STRIPE_API_URL || 'https://api.stripe.com').replace(/\/+$/, ''),
  };
}
