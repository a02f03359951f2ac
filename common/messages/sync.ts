export const syncMessages = {
  collectionUnknown: (name: string) => `Unknown collection: ${name}.`,
  checkpointInvalid: 'checkpoint must be empty or of the form <xid>:<seq>.',
  limitInvalid: 'limit must be a whole number from 1 to 1000.',
  idsInvalid: 'ids must be a comma-separated list of at most 1000 document ids.',
} as const;
