/** Hooks the rooms and overview screens share: a stored image, following a temporary id. */
import { useEffect, useState } from 'react';
import { fileObjectUrl } from '../../api/files';
import { useApiContext } from '../../app/hooks';
import { isTempId } from '../../../sync/types';

export interface StoredImage {
  url: string | null;
  loading: boolean;
  error: string | null;
}

/**
 * A stored file (an `ImageName` or `WhiteboardImage` path) as an object URL for <img>, fetched with the
 * session's token (files are not public); the URL is revoked when the reference changes or the image
 * leaves the screen.
 */
export function useStoredImage(reference: string | null | undefined): StoredImage {
  const context = useApiContext();
  const [state, setState] = useState<StoredImage>({ url: null, loading: Boolean(reference), error: null });
  useEffect(() => {
    if (!reference) {
      setState({ url: null, loading: false, error: null });
      return undefined;
    }
    if (!context) return undefined;
    let alive = true;
    let url: string | null = null;
    setState({ url: null, loading: true, error: null });
    fileObjectUrl(context, { file: reference }).then(
      (made) => {
        url = made;
        if (alive) setState({ url: made, loading: false, error: null });
        else URL.revokeObjectURL(made);
      },
      (error: unknown) => alive && setState({ url: null, loading: false, error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      alive = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [context, reference]);
  return state;
}

/** An object URL of a file the grower just picked (a preview until the server's copy arrives), revoked when replaced. */
export function usePreview(file: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return undefined;
    }
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url;
}

/**
 * Follows a record made offline: while `id` is a temporary id whose document has left the local store
 * (`missing`), asks the outbox's id map which server id it became and calls `onMapped` with it (the
 * sync worker maps the id before it replaces the document, so the answer is usually there at once; it
 * is asked again for a few seconds in case it is not). Returns true while it is still looking.
 */
export function useFollowTempId(id: string | null | undefined, missing: boolean, onMapped: (serverId: string) => void): boolean {
  const context = useApiContext();
  const [gaveUpOn, setGaveUpOn] = useState<string | null>(null);
  const looking = missing && isTempId(id) && gaveUpOn !== id;
  useEffect(() => {
    if (!context || !looking || !isTempId(id)) return undefined;
    let alive = true;
    let tries = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = async () => {
      const serverId = (await context.recorder.knownIds([id])).get(id);
      if (!alive) return;
      if (serverId !== undefined) onMapped(String(serverId));
      else if ((tries += 1) < 20) timer = setTimeout(() => void look(), 500);
      else setGaveUpOn(id);
    };
    void look();
    return () => {
      alive = false;
      clearTimeout(timer);
    };
    // onMapped is a fresh closure each render; the lookup depends on the id and whether it is missing.
  }, [context, id, looking]);
  return looking;
}
