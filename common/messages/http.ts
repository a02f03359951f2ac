/** Messages of the HTTP layer itself, shared by every domain. */
export const httpMessages = {
  notFound: 'Not found.',
  routeNotFound: (method: string, url: string) => `Route ${method} ${url} not found.`,
  unauthenticated: 'Authentication required.',
  invalidToken: 'Invalid or expired access token.',
  otherCompany: 'You do not have access to this company.',
  roleForbidden: 'Your role does not allow this action.',
  notYourself: 'You can only do this as yourself.',
  recordNotFound: (key: string) => `No record found for ${key}.`,
  rateLimited: 'Too many requests. Please wait a moment and try again.',
  payloadTooLarge: 'The request is too large.',
  unsupportedMediaType: 'This file type is not supported.',
  idempotencyInFlight: 'A request with this Idempotency-Key is still being processed.',
  idempotencyMismatch: 'This Idempotency-Key was already used for a different request.',
  internal: 'Something went wrong on the server.',
  invalidJson: 'The request body is not valid JSON.',
  invalidRequest: 'The request is not valid.',
} as const;
