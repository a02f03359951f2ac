/**
 * The one HTTP client (spec part 1 §1, §4): an axios instance on the backend address, sending the
 * access token as a bearer credential. On a 401 or 403 it refreshes the access token once and retries;
 * when the refresh token is no longer accepted, the session ends and the app goes to /signIn.
 *
 * The sync worker builds its own instances of this client (a worker is another JavaScript realm) over
 * the page's sessions, so both use the same rules: one per user whose changes wait (a kiosk holds
 * several users' sessions, `SessionVault`), and `transportOf` sends each change with its author's.
 */
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import type { z } from 'zod';
import type { IssuedSession, refreshTokenAnswer } from '../../common/schemas/session';
import type { ApiCall, ApiTransport } from '../../sync/replay';
import type { EntryBody } from '../../sync/types';

/** A session as sign-in opens it (POST /login's answer, common/schemas/session.ts `issuedSession`). */
export type Session = IssuedSession;

/** Where the session is kept: localStorage in the page; in the worker, the page's (over comlink). */
export interface SessionStore {
  get(): Promise<Session | null>;
  set(session: Session): Promise<void>;
  clear(): Promise<void>;
}

/**
 * Every session this tablet holds: the signed-in user's, and on a shared kiosk those of users who
 * switched away by PIN without signing out (src/api/kiosk.ts). Their queued changes keep going out
 * under their own sessions, whoever is at the screen.
 */
export interface SessionVault {
  /** The session of `userId`; null asks for the signed-in user's. */
  get(userId: number | null): Promise<Session | null>;
  /** Keeps a refreshed session for its user, where that user's session is kept. */
  set(session: Session): Promise<void>;
  /** `userId`'s session has ended (its refresh token was refused): forget it. */
  clear(userId: number | null): Promise<void>;
}

/** One user's session within the vault, as the client's session store (the signed-in user's for null). */
export function sessionOf(vault: SessionVault, userId: number | null): SessionStore {
  return {
    get: () => vault.get(userId),
    set: (session) => vault.set(session),
    clear: () => vault.clear(userId),
  };
}

/**
 * The backend address for the page's host (spec part 1 §1): production host names (build setting
 * VITE_PRODUCTION_HOSTS, comma-separated) use VITE_PRODUCTION_API_URL, any other host
 * VITE_DEVELOPMENT_API_URL; both default to this origin's /api, where `npm start` serves the API.
 */
export function backendUrl(host: string, env: { VITE_PRODUCTION_HOSTS?: string; VITE_PRODUCTION_API_URL?: string; VITE_DEVELOPMENT_API_URL?: string }): string {
  const productionHosts = (env.VITE_PRODUCTION_HOSTS ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const isProduction = productionHosts.includes(host.toLowerCase());
  return (isProduction ? env.VITE_PRODUCTION_API_URL : env.VITE_DEVELOPMENT_API_URL) || '/api';
}

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Already retried after a refresh: a second 401/403 stands. */
    refreshed?: boolean;
    /** The refresh call itself, and sign-in calls: never refreshed. */
    skipRefresh?: boolean;
  }
}

export interface ApiClient {
  http: AxiosInstance;
  session: SessionStore;
  baseURL: string;
  /** Refreshes the access token (one refresh at a time); false when the session has ended. */
  refresh(): Promise<boolean>;
}

/**
 * Refreshes under way, by the refresh token they use: clients over one session (the sync worker's, for
 * the user and for the pull) share one refresh instead of rotating the token twice.
 */
export type SharedRefreshes = Map<string, Promise<boolean>>;

export interface ApiClientOptions {
  baseURL: string;
  session: SessionStore;
  onSignedOut?: () => void;
  refreshes?: SharedRefreshes;
  /**
   * A 401 or 403 stands: the session is never refreshed. The service worker's clients
   * (workers/background-send.ts): refresh tokens rotate, so a refresh there would sign the page out.
   */
  neverRefresh?: boolean;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const { session } = options;
  const http = axios.create({ baseURL: options.baseURL, timeout: 60_000 });
  let refreshing: Promise<boolean> | null = null;
  const shared = options.refreshes;

  async function refreshOnce(): Promise<boolean> {
    const current = await session.get();
    if (!current?.refresh_token) return false;
    const response = await http.post<z.infer<typeof refreshTokenAnswer>>('/refresh_token', null, {
      headers: { Authorization: `Bearer ${current.refresh_token}` },
      skipRefresh: true,
      validateStatus: () => true,
    });
    if (response.status === 200) {
      await session.set({ ...current, access_token: response.data.access_token, refresh_token: response.data.refresh_token });
      return true;
    }
    if (response.status === 401) {
      await session.clear();
      options.onSignedOut?.();
      return false;
    }
    // Rate limited or the server failing: not the end of the session, just not now.
    throw new Error(`Refreshing the session failed (${response.status}).`);
  }

  function refresh(): Promise<boolean> {
    refreshing ??= (async () => {
      const token = (await session.get())?.refresh_token;
      if (!shared || !token) return refreshOnce();
      const under = shared.get(token);
      if (under) return under;
      const started = refreshOnce().finally(() => shared.delete(token));
      shared.set(token, started);
      return started;
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  http.interceptors.request.use(async (config) => {
    if (!config.skipRefresh && !config.headers.Authorization) {
      const current = await session.get();
      if (current?.access_token) config.headers.Authorization = `Bearer ${current.access_token}`;
    }
    return config;
  });

  async function retryAfterRefresh(response: AxiosResponse): Promise<AxiosResponse | null> {
    const config = response.config;
    if ((response.status !== 401 && response.status !== 403) || config.refreshed || config.skipRefresh || options.neverRefresh) return null;
    // Sent with a token another request has replaced since: retry with the new one, no second refresh.
    const sentWith = String(config.headers.Authorization ?? '');
    const latest = await session.get();
    if (!latest?.access_token || sentWith === `Bearer ${latest.access_token}`) {
      if (!(await refresh())) return null;
    }
    config.refreshed = true;
    const current = await session.get();
    config.headers.Authorization = `Bearer ${current?.access_token ?? ''}`;
    return http.request(config);
  }

  http.interceptors.response.use(
    async (response) => (await retryAfterRefresh(response)) ?? response,
    async (error: unknown) => {
      if (axios.isAxiosError(error) && error.response) {
        const retried = await retryAfterRefresh(error.response);
        if (retried) return retried;
      }
      throw error;
    },
  );

  return { http, session, baseURL: options.baseURL, refresh };
}

/** A multipart body as FormData; files stay Blobs. */
function formDataOf(body: Extract<EntryBody, { kind: 'multipart' }>): FormData {
  const form = new FormData();
  for (const part of body.parts) {
    if ('blob' in part) form.append(part.name, part.blob, part.fileName);
    else form.append(part.name, String(part.value));
  }
  return form;
}

/**
 * The sync engine's transport: every HTTP answer resolves; only a missing answer rejects. Each call
 * goes out with the session of the user it names (`clientFor` gives that user's client); never with
 * another's.
 */
export function transportOf(clientFor: (userId: number | null) => ApiClient): ApiTransport {
  return {
    async send(call: ApiCall, userId: number | null = null) {
      const client = clientFor(userId);
      // No session for that user on this tablet: nothing may go out in their name.
      if (!(await client.session.get())) return { status: 401, data: null };
      const body = call.body ?? { kind: 'none' };
      const response = await client.http.request({
        method: call.method,
        url: call.path,
        params: call.query,
        data: body.kind === 'json' ? body.data : body.kind === 'multipart' ? formDataOf(body) : undefined,
        headers: { ...(call.idempotencyKey ? { 'Idempotency-Key': call.idempotencyKey } : {}), ...(call.actedAt ? { 'X-Acted-At': call.actedAt } : {}) },
        signal: call.signal,
        validateStatus: () => true,
      });
      return { status: response.status, data: response.data as unknown };
    },
    async hasSession(userId) {
      return (await clientFor(userId).session.get()) !== null;
    },
    // axios cannot hand over a streaming body in every environment; the event stream uses fetch with
    // the signed-in user's session, and refreshes once through the client on a 401.
    async openStream(signal) {
      const client = clientFor(null);
      const open = async () => {
        const current = await client.session.get();
        return fetch(`${client.baseURL}/sync/stream`, { signal, headers: current ? { Authorization: `Bearer ${current.access_token}` } : {} });
      };
      const sentWith = (await client.session.get())?.access_token;
      let response = await open();
      if (response.status === 401 || response.status === 403) {
        const latest = (await client.session.get())?.access_token;
        if (latest !== sentWith || (await client.refresh())) response = await open();
      }
      return { status: response.status, body: response.body };
    },
  };
}

/**
 * Clients by user over a vault, made once each: the sync worker's (and a test tablet's) way to send a
 * change under its author's session. `onSignedOut` is told whose session ended.
 */
export function clientsOf(options: { baseURL: string; vault: SessionVault; onSignedOut?: (userId: number | null) => void; neverRefresh?: boolean }): (userId: number | null) => ApiClient {
  const clients = new Map<number | null, ApiClient>();
  const refreshes: SharedRefreshes = new Map();
  return (userId) => {
    let client = clients.get(userId);
    if (!client) {
      client = createApiClient({ baseURL: options.baseURL, session: sessionOf(options.vault, userId), onSignedOut: () => options.onSignedOut?.(userId), refreshes, neverRefresh: options.neverRefresh });
      clients.set(userId, client);
    }
    return client;
  };
}
