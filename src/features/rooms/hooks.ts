/** Hooks the rooms and overview screens share: a stored image. */
import { useEffect, useState } from 'react';
import { deferred } from '../../app/deferred';
import { useApiContext } from '../../app/hooks';
import { messageOf } from '../../i18n/messages';

/** Loaded on first use (app/deferred.ts): a room's grids paint before their images are asked for. */
const fileObjectUrl = deferred(() => import('../../api/files'), 'fileObjectUrl');

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
      (error: unknown) => alive && setState({ url: null, loading: false, error: messageOf(error) }),
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

