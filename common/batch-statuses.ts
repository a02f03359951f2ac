/**
 * The crop statuses every company has (spec part 1 §3: "the built-in batch status values are not
 * shown"). The stages a batch of plants goes through in order, then its two endings. A company adds
 * its own names beside these (create_custom_batch_status); a custom name may not repeat a built-in one.
 */
export const BUILT_IN_BATCH_STATUSES = ['Propagation', 'Vegetative', 'Flowering', 'Drying', 'Curing', 'Harvested', 'Destroyed'] as const;

/** The status a batch gets when created without one, and the one harvest_batch sets. */
export const DEFAULT_BATCH_STATUS = 'Propagation';
export const HARVESTED_BATCH_STATUS = 'Harvested';

export const isBuiltInBatchStatus = (name: string) => BUILT_IN_BATCH_STATUSES.some((status) => status.toLowerCase() === name.trim().toLowerCase());
