/**
 * How screens read and write: the domain functions' context, local collections as live lists (the
 * screens re-render from the local store at once, online or offline), and one way to run an action
 * with its loading state, a toast on success and the error kept on failure (spec: every data action
 * moves loading → success or failed, and keeps the error text).
 */
import { useCallback, useEffect, useState } from 'react';
import type { ApiContext } from '../api/context';
import type { CollectionName, LocalDocument } from '../db/schemas';
import type { Role } from '../../common/roles';
import { useSyncStatus } from '../sync/sync-store';
import { apiContext, session } from './services';
import { messageOf, translateMessage } from '../i18n/messages';
import { showToast, type ToastType } from './toasts';

/** The context of the domain functions (the local database opens once per page). */
export function useApiContext(): ApiContext | null {
  const [context, setContext] = useState<ApiContext | null>(null);
  useEffect(() => {
    let alive = true;
    void apiContext().then((value) => alive && setContext(value));
    return () => {
      alive = false;
    };
  }, []);
  return context;
}

/**
 * A stored document as a plain object, made once per stored revision: RxDB keeps one document object
 * per revision, so an unchanged document keeps its identity across a list's emissions (memoised rows,
 * such as a room's 2,000 boxes, skip re-rendering) and is not deep-copied on every change.
 * WARNING: shared and read-only: copy before changing (screens never change documents in place).
 */
const plainDocuments = new WeakMap<object, LocalDocument>();
function plainOf(document: { toJSON(): unknown }): LocalDocument {
  let plain = plainDocuments.get(document);
  if (!plain) {
    plain = document.toJSON() as LocalDocument;
    plainDocuments.set(document, plain);
  }
  return plain;
}

export interface LiveList<T> {
  documents: T[];
  loading: boolean;
}

/**
 * The documents of a local collection matching `selector`, kept current as the store changes (the
 * sync worker's pulls, this page's optimistic writes). `selectorKey` must change when the selector does.
 * The documents are shared and read-only (see plainOf).
 */
export function useLocalQuery<T extends LocalDocument = LocalDocument>(collection: CollectionName, selector: Record<string, unknown>, selectorKey: string, sort?: Array<Record<string, 'asc' | 'desc'>>): LiveList<T> {
  const context = useApiContext();
  const [state, setState] = useState<LiveList<T>>({ documents: [], loading: true });
  useEffect(() => {
    if (!context) return undefined;
    const query = context.database.collections[collection].find({ selector, ...(sort ? { sort } : {}) });
    const subscription = query.$.subscribe((documents) => setState({ documents: documents.map((document) => plainOf(document) as T), loading: false }));
    return () => subscription.unsubscribe();
    // The selector and sort are described by selectorKey; depending on the objects would re-subscribe on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [context, collection, selectorKey]);
  return state;
}

/**
 * The selector of one local document by its address: a record is keyed by its client id; an address
 * with the spec's integer id (a printed QR label, a link from before client ids) finds it by `serverId`.
 * The company's document is keyed by its integer id.
 */
export function localDocumentSelector(collection: CollectionName, id: string | undefined): Record<string, unknown> {
  return !id ? { id: '\u0000' } : collection !== 'company' && /^\d+$/.test(id) ? { serverId: Number(id) } : { id };
}

/** One local document by id, kept current (null while missing). */
export function useLocalDocument<T extends LocalDocument = LocalDocument>(collection: CollectionName, id: string | undefined): { document: T | null; loading: boolean } {
  const { documents, loading } = useLocalQuery<T>(collection, localDocumentSelector(collection, id), id ?? '');
  return { document: documents[0] ?? null, loading };
}

export type { ToastType } from './toasts';

/**
 * Toasts of the spec's four types (src/app/toasts.ts). A spec message (a server's answer, a rule's
 * refusal) shows in the reader's language; a screen's own text comes translated.
 */
export function useToast() {
  return useCallback((message: string, type: ToastType = 'info') => showToast({ message: translateMessage(message), type }), []);
}

export interface Action<Args extends unknown[]> {
  run: (...args: Args) => Promise<boolean>;
  busy: boolean;
  error: string | null;
}

/**
 * Runs a domain function with the context: busy while it runs, its error kept (and toasted, in the
 * reader's language) when it fails, `success` toasted when it passes. Resolves true on success. Queued writes pass at once: their
 * later refusal by the server shows in the sync indicator.
 */
export function useAction<Args extends unknown[]>(
  action: (context: ApiContext, ...args: Args) => Promise<unknown>,
  success?: string,
  /** `inlineErrors`: the screen shows the error beside the form itself, so no toast repeats it. */
  options: { inlineErrors?: boolean } = {},
): Action<Args> {
  const context = useApiContext();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async (...args: Args) => {
      if (!context) return false;
      setBusy(true);
      setError(null);
      try {
        await action(context, ...args);
        if (success) toast(success, 'success');
        return true;
      } catch (caught) {
        const message = messageOf(caught);
        setError(message);
        if (!options.inlineErrors) toast(message, 'danger');
        return false;
      } finally {
        setBusy(false);
      }
    },
    [action, context, success, toast, options.inlineErrors],
  );
  return { run, busy, error };
}

export interface SignedInUser {
  userId: number;
  companyId: number;
  role: Role | null;
  /** Admin and SuperAdmin change settings, invite, delete and reset (the server's `admin` access). */
  isAdmin: boolean;
}

/** The signed-in user (null until the session is read; the dashboard's guard already required one). */
export function useSignedInUser(): SignedInUser | null {
  const [user, setUser] = useState<SignedInUser | null>(null);
  useEffect(() => {
    let alive = true;
    void session.get().then((current) => {
      if (!alive || !current) return;
      const role = session.role();
      setUser({ userId: current.user_id, companyId: current.company_id, role, isAdmin: role === 'Admin' || role === 'SuperAdmin' });
    });
    return () => {
      alive = false;
    };
  }, []);
  return user;
}

export interface ServerRead<T> {
  /** null while offline, before the first answer, or after a failed read. */
  data: T | null;
  loading: boolean;
  error: string | null;
  /** Reads again (after a change, or when the Admin asks). */
  reload: () => void;
}

/**
 * One online read, for what lives on the server only (camera images, automation rules): again whenever
 * `key` changes, the connection returns or `reload` is called; nothing while offline or while `read` is
 * null, so a screen shows no stale copy offline.
 */
export function useServerRead<T>(read: ((context: ApiContext) => Promise<T>) | null, key: string): ServerRead<T> {
  const context = useApiContext();
  const online = useSyncStatus((status) => status.online);
  const [state, setState] = useState<{ data: T | null; loading: boolean; error: string | null }>({ data: null, loading: true, error: null });
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((current) => current + 1), []);
  const enabled = read !== null;
  useEffect(() => {
    if (!online || !read) {
      setState({ data: null, loading: false, error: null });
      return undefined;
    }
    if (!context) return undefined;
    let current = true;
    setState((previous) => ({ ...previous, loading: true, error: null }));
    read(context).then(
      (data) => current && setState({ data, loading: false, error: null }),
      (error: unknown) => current && setState({ data: null, loading: false, error: messageOf(error) }),
    );
    return () => {
      current = false;
    };
    // `read` is described by `key`: a new closure each render must not read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [context, online, key, round, enabled]);
  return { ...state, reload };
}
