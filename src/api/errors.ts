/**
 * The errors of the domain functions (src/api): a rule of the spec refused the input, or the server
 * refused or could not be reached. Apart from context.ts so the first page can use them without the
 * validation schemas (zod) that context.ts carries.
 */
import axios from 'axios';

/** A rule of the spec's client side failed: the message is the spec's own (spec part 1 §5, part 2 §5). */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
}

/** A call the server refused or that could not reach it: the server's message, or the spec's fallback (spec §8). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/** True when a call got no answer at all (no network, server unreachable): the offline case of spec §8. */
export const unanswered = (error: unknown): error is ApiError => error instanceof ApiError && error.status === null;

/** The server's message from a failed call, if it sent one. */
export function serverMessage(error: unknown): string | null {
  if (!axios.isAxiosError(error)) return null;
  const data = error.response?.data as { message?: unknown } | undefined;
  return typeof data?.message === 'string' && data.message ? data.message : null;
}
