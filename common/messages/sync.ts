/** Most outbox entries one `POST /api/sync/push` carries. */
export const PUSH_ENTRIES_MAX = 200;

export const syncMessages = {
  collectionUnknown: (name: string) => `Unknown collection: ${name}.`,
  checkpointInvalid: 'checkpoint must be empty or of the form <xid>:<seq>.',
  limitInvalid: 'limit must be a whole number from 1 to 5000.',
  idsInvalid: 'ids must be a comma-separated list of at most 1000 document ids.',
  namingInvalid: 'naming must be server or client.',
  entriesInvalid: `entries must be a list of 1 to ${PUSH_ENTRIES_MAX} outbox entries.`,
  entryIdInvalid: 'Each entry needs an id of 8 to 200 letters, digits or -_.: (its Idempotency-Key).',
  entryMethodInvalid: 'Each entry method must be POST, PUT, PATCH or DELETE.',
  entryPathInvalid: 'Each entry path must be an API path such as /create_room: starting with /, outside /sync, without .., ? or #.',
  entryQueryInvalid: 'Each entry query must map names to strings, numbers or booleans.',
  entryBodyInvalid: 'Each entry body must be {kind: "json", data}, {kind: "none"} or {kind: "multipart", parts: [{name, value}]} with text values.',
  entryActedAtInvalid: 'Each entry actedAt must be a date-time text of at most 64 characters.',
} as const;
