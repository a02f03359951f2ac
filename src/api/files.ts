/**
 * Stored files (GET /api/files/{id}): uploaded images (grid backgrounds, whiteboards) are served only
 * to the company's users with an access token, so an <img> cannot load them by address. The app
 * fetches a file through the one client (bearer token, refresh once on 401/403) and shows it as a Blob
 * URL. Documents keep the path the server gave (`ImageName`, `WhiteboardImage`: `/api/files/{id}`).
 */
import axios from 'axios';
import { fileClientMessages as cm } from '../../common/messages/files';
import { type ApiContext, ApiError, ValidationError } from './context';

const FILE_REFERENCE = /(?:^|\/files\/)([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The file id in a reference: the id itself, or a path or address ending in `/files/{id}`; null otherwise. */
export function fileIdOf(reference: string): string | null {
  const path = reference.trim().split(/[?#]/)[0] ?? '';
  return FILE_REFERENCE.exec(path)?.[1]?.toLowerCase() ?? null;
}

/** The server's message in a failed binary answer (its body arrives as bytes, not parsed JSON). */
function binaryAnswerMessage(data: unknown): string | null {
  try {
    const text = typeof data === 'string' ? data : data instanceof ArrayBuffer || ArrayBuffer.isView(data) ? new TextDecoder().decode(data as ArrayBuffer) : '';
    const message = (JSON.parse(text) as { message?: unknown }).message;
    return typeof message === 'string' && message ? message : null;
  } catch {
    return null;
  }
}

/**
 * The stored file as a Blob (with its content type). A reference that is no file fails with 'Not a
 * stored file.'; a failed fetch with the server's message ('File not found.', or the access error) or
 * 'Failed to load file.'.
 *
 * It uses the client's axios instance directly: `online` (context.ts) answers the body only, and a file
 * needs its content type too.
 */
export async function getFile(context: Pick<ApiContext, 'client'>, input: { file: string }): Promise<Blob> {
  const id = fileIdOf(input.file);
  if (!id) throw new ValidationError(cm.referenceInvalid);
  try {
    const response = await context.client.http.get<ArrayBuffer>(`/files/${id}`, { responseType: 'arraybuffer' });
    return new Blob([response.data], { type: String(response.headers['content-type'] ?? '') });
  } catch (error) {
    const answer = axios.isAxiosError(error) ? error.response : undefined;
    throw new ApiError(binaryAnswerMessage(answer?.data) ?? cm.fetchFailed, answer?.status ?? null);
  }
}

/**
 * An object URL for the stored file, for an <img src>.
 *
 * WARNING: the URL holds the file in memory until `URL.revokeObjectURL(url)`; revoke it when the image
 * leaves the screen.
 */
export async function fileObjectUrl(context: Pick<ApiContext, 'client'>, input: { file: string }): Promise<string> {
  return URL.createObjectURL(await getFile(context, input));
}
