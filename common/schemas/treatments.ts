/**
 * Requests and answers of spray products, treatments and spray records (spec part 2 §3, §7, §8), and
 * the one rule both sides apply to a spray: when its re-entry and pre-harvest intervals end. Mutations
 * read their fields from a JSON body, a form or multipart body, or the query (the server merges the
 * query under the body before these run).
 */
import { z } from 'zod';
import { FREE_FIELDS_MAX_CHARS, PREHARVEST_DAYS_MAX, REENTRY_HOURS_MAX, SPRAYED_BOXES_MAX, TREATMENT_TYPES, treatmentMessages as m } from '../messages/treatments';
import { answer, recordRef, timestamp } from './answers';
import { optionalClientId, optionalId, optionalText, requiredId, requiredText } from './fields';

type Fields = Record<string, unknown>;

/** Bytes (a multipart file part, a Buffer) are not fields. */
const isBytes = (value: unknown) => ArrayBuffer.isView(value);

const isPlainObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value) && !isBytes(value);

/** JSON text (a form's or multipart's field) as its value; anything else, or text that is not JSON, as it is. */
function parsedJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

const jsonLength = (value: unknown) => JSON.stringify(value).length;

/** A request's fields; a request without a body is checked as an empty one, so the field messages apply. */
const orEmpty = (value: unknown) => value ?? {};

/** Blank text and null count as absent. */
const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);
/** On update, blank text and null clear the field. */
const blankToNull = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? null : value);

/** A finite number from 0 to `max` (from JSON or text). */
const amount = (message: string, max: number) =>
  z.coerce.number({ error: message }).refine(Number.isFinite, { error: message, abort: true }).min(0, { error: message }).max(max, { error: message });

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());
/** On update: left out keeps the value, blank or null clears it. */
const clearable = <T extends z.ZodType>(schema: T) => z.preprocess(blankToNull, schema.nullable()).optional();

const treatmentType = z.preprocess((value) => (typeof value === 'string' ? value.trim().toLowerCase() : value), z.enum(TREATMENT_TYPES, { error: m.treatmentTypeInvalid }));

const subTypeText = z.string({ error: m.subTypeInvalid }).trim().max(100, { error: m.subTypeInvalid });

/** A treatment's data: an object, as JSON or as JSON text (a form's field). */
const treatmentData = z.preprocess(parsedJsonText, z.record(z.string(), z.unknown(), { error: m.dataInvalid }).refine((data) => jsonLength(data) <= FREE_FIELDS_MAX_CHARS, { error: m.dataInvalid }));

// ——— Spray products ———

/** A product's fields the server knows; any other field it is sent is kept in its `details`. */
const PRODUCT_FIELDS = ['ProductName', 'ActiveIngredient', 'Rate', 'RateUnit', 'ReentryHours', 'PreharvestDays'] as const;
/** Fields of the calls themselves, never details of the product. */
const CALL_FIELDS = ['company_id', 'product_id', 'client_id'] as const;
const NOT_DETAILS: ReadonlySet<string> = new Set<string>([...PRODUCT_FIELDS, ...CALL_FIELDS]);

/** The fields a product was sent with beyond the known ones become its `details` (files are not details). */
function withDetails<T extends Fields>(fields: T): T & { details: Fields } {
  const known: Fields = {};
  const details: Fields = {};
  for (const [name, value] of Object.entries(fields)) {
    if (NOT_DETAILS.has(name)) known[name] = value;
    else if (!isBytes(value)) details[name] = value;
  }
  return { ...(known as T), details };
}
const detailsFit = (fields: { details: Fields }) => jsonLength(fields.details) <= FREE_FIELDS_MAX_CHARS;

const productName = requiredText(m.productNameRequired, 200);
const rate = amount(m.rateInvalid, 1_000_000_000);
const reentryHours = amount(m.reentryInvalid, REENTRY_HOURS_MAX);
const preharvestDays = amount(m.preharvestInvalid, PREHARVEST_DAYS_MAX);

/** add_spray_product: the company (query), ProductName and the product's other fields; unknown fields become its details. */
export const addSprayProductBody = z.preprocess(
  orEmpty,
  z
    .looseObject({
      company_id: requiredId(m.companyIdRequired),
      ProductName: productName,
      ActiveIngredient: optionalText(500),
      Rate: optional(rate),
      RateUnit: optionalText(50),
      ReentryHours: optional(reentryHours),
      PreharvestDays: optional(preharvestDays),
      client_id: optionalClientId(),
    })
    .transform(withDetails)
    .refine(detailsFit, { error: m.detailsTooLarge }),
);

/**
 * update_spray_product: only the fields sent change; a known field sent blank (or null) is cleared
 * (ProductName cannot be). Other fields sent join the product's details, one sent blank leaves them.
 */
export const updateSprayProductBody = z.preprocess(
  orEmpty,
  z
    .looseObject({
      product_id: requiredId(m.productIdRequired),
      company_id: optionalId(m.companyIdRequired),
      ProductName: z.preprocess((value) => (value === null ? undefined : value), productName.optional()),
      ActiveIngredient: clearable(z.string().trim().max(500)),
      Rate: clearable(rate),
      RateUnit: clearable(z.string().trim().max(50)),
      ReentryHours: clearable(reentryHours),
      PreharvestDays: clearable(preharvestDays),
    })
    .transform(withDetails)
    .refine(detailsFit, { error: m.detailsTooLarge }),
);

export const deleteProductBody = z.preprocess(
  orEmpty,
  z.object({ product_id: requiredId(m.productIdCompanyRequired), company_id: requiredId(m.productIdCompanyRequired) }),
);

export const productCompanyQuery = z.object({ company_id: requiredId(m.companyIdRequired) });

// ——— Treatments ———

/**
 * The spec sends a treatment as `{treatment_type, data}`, and its product, sub-type and company may
 * ride inside `data` (as the tablet's form keeps them) or beside it: both are read, the one beside
 * wins, and they are taken out of `data`, which keeps only the treatment's own fields.
 */
function liftedFromData(value: unknown): unknown {
  const body = orEmpty(value);
  if (!isPlainObject(body)) return body;
  const data = parsedJsonText(body.data);
  if (!isPlainObject(data)) return body;
  const { product_id, sub_type, company_id, ...rest } = data;
  return { ...body, product_id: body.product_id ?? product_id, sub_type: body.sub_type ?? sub_type, company_id: body.company_id ?? company_id, data: rest };
}

export const createTreatmentBody = z.preprocess(
  liftedFromData,
  z.object({
    treatment_type: treatmentType,
    data: treatmentData,
    product_id: requiredId(m.productIdRequired),
    sub_type: optional(subTypeText),
    company_id: optionalId(m.companyIdRequired),
    client_id: optionalClientId(),
  }),
);

export const getTreatmentQuery = z.object({
  treatment_type: treatmentType,
  company_id: requiredId(m.companyIdRequired),
  product_id: optionalId(m.productIdRequired),
});

/** update_treatment: the treatment of this type for the product; `data` replaces the old, `sub_type` changes only when sent. */
export const updateTreatmentBody = z.preprocess(
  liftedFromData,
  z.object({
    treatment_type: treatmentType,
    data: treatmentData,
    company_id: requiredId(m.productIdCompanyRequired),
    product_id: requiredId(m.productIdCompanyRequired),
    sub_type: clearable(subTypeText),
  }),
);

/**
 * delete_treatment: a toggle (spec §4). `removed` (true or false), when sent, says which state is meant
 * instead, so a change replayed from a tablet cannot undo itself.
 */
export const deleteTreatmentBody = z.preprocess(
  orEmpty,
  z.object({
    treatment_type: treatmentType,
    company_id: requiredId(m.productIdCompanyRequired),
    product_id: requiredId(m.productIdCompanyRequired),
    removed: optional(z.preprocess((value) => (value === 'true' || value === '1' || value === 1 ? true : value === 'false' || value === '0' || value === 0 ? false : value), z.boolean({ error: m.removedInvalid }))),
  }),
);

// ——— Spray records ———

/**
 * Grid box ids as a JSON array, a JSON array's text, a comma-joined text, or repeated form fields
 * (numbers, or client ids the server has resolved before this runs).
 */
const sprayedBoxIds = z.preprocess(
  (value) => {
    const parsed = typeof value === 'string' && value.trim().startsWith('[') ? parsedJsonText(value) : value;
    const items = Array.isArray(parsed) ? parsed : parsed === undefined || parsed === null ? [] : [parsed];
    return items.flatMap((item) => (typeof item === 'string' ? item.split(',').map((part) => part.trim()).filter(Boolean) : [item]));
  },
  z
    .array(requiredId(m.gridBoxesRequired), { error: m.gridBoxesRequired })
    .min(1, { error: m.gridBoxesRequired })
    .max(SPRAYED_BOXES_MAX, { error: m.gridBoxesRequired }),
);

/**
 * link_treatment_products_gridboxes: a spray of a product on grid boxes. The product is named by
 * `product_id`, or by `ProductName` alone: the company's product of that name (any case), else the
 * name is kept as free text (a spray of something not in the catalogue, without intervals).
 */
export const linkTreatmentProductsBody = z.preprocess(
  orEmpty,
  z
    .object({
      company_id: optionalId(m.companyIdRequired),
      ApplicationDate: optional(z.iso.datetime({ offset: true, error: m.applicationDateInvalid })),
      product_id: optionalId(m.productRequired),
      ProductName: optional(requiredText(m.productRequired, 200)),
      QuantityUsed: z.preprocess(blankToUndefined, amount(m.quantityInvalid, 1_000_000_000).positive({ error: m.quantityInvalid })),
      QuantityUnit: optionalText(50),
      Notes: optionalText(2000),
      Grid_boxIDs: sprayedBoxIds,
      client_id: optionalClientId(),
    })
    .refine((body) => body.product_id !== undefined || body.ProductName !== undefined, { error: m.productRequired }),
);

// ——— The rule both sides apply ———

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * When a spray's re-entry interval (ReentryHours after it) and pre-harvest interval (PreharvestDays)
 * end; null for an interval the product does not have (or a spray of no known product). The server
 * fixes both when the spray is recorded; a tablet recording one offline computes the same.
 */
export function sprayIntervalEnds(appliedAt: Date, product: { ReentryHours: number | null; PreharvestDays: number | null } | null) {
  const after = (ms: number | null) => (ms === null ? null : new Date(appliedAt.getTime() + ms));
  return {
    reentryUntil: after(product && product.ReentryHours !== null ? product.ReentryHours * HOUR_MS : null),
    preharvestUntil: after(product && product.PreharvestDays !== null ? product.PreharvestDays * DAY_MS : null),
  };
}

// ——— Answers ———

/** A spray product, as answers and the synced `operations` collection (kind `spray_product`) show it. */
export const sprayProductRecord = z.object({
  product_id: recordRef,
  ProductName: z.string(),
  ActiveIngredient: z.string().nullable(),
  Rate: z.number().nullable(),
  RateUnit: z.string().nullable(),
  /** Re-entry interval, hours. */
  ReentryHours: z.number().nullable(),
  /** Pre-harvest interval, days. */
  PreharvestDays: z.number().nullable(),
  /** The other fields the product was sent with. */
  details: z.record(z.string(), z.unknown()),
  company_id: z.number().int(),
  created_at: timestamp,
  updated_at: timestamp,
});

export type SprayProductRecord = z.infer<typeof sprayProductRecord>;

/**
 * A treatment, as answers and the `operations` collection (kind `treatment`) show it. A removed one
 * (delete_treatment's toggle) is still listed, with `removed: true`, so it can be restored.
 */
export const treatmentRecord = z.object({
  treatment_id: recordRef,
  treatment_type: z.enum(TREATMENT_TYPES),
  sub_type: z.string().nullable(),
  product_id: recordRef,
  data: z.record(z.string(), z.unknown()),
  removed: z.boolean(),
  removed_at: timestamp.nullable(),
  company_id: z.number().int(),
  user_id: z.number().int().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});

export type TreatmentRecord = z.infer<typeof treatmentRecord>;

/**
 * A spray of a product on grid boxes, as answers and the `operations` collection (kind
 * `spray_application`) show it: a box stays inside its re-entry interval until `reentry_until`, and
 * its harvest waits for `preharvest_until` (null: no such interval).
 */
export const sprayApplicationRecord = z.object({
  application_id: recordRef,
  ApplicationDate: timestamp,
  product_id: recordRef.nullable(),
  ProductName: z.string(),
  QuantityUsed: z.number(),
  QuantityUnit: z.string().nullable(),
  Notes: z.string().nullable(),
  Grid_boxIDs: z.array(recordRef),
  reentry_until: timestamp.nullable(),
  preharvest_until: timestamp.nullable(),
  company_id: z.number().int(),
  user_id: z.number().int().nullable(),
  created_at: timestamp,
});

export type SprayApplicationRecord = z.infer<typeof sprayApplicationRecord>;

export const addSprayProductAnswer = answer({ product: sprayProductRecord, product_id: recordRef, client_id: z.string() });
export const sprayProductAnswer = answer({ product: sprayProductRecord });
export const deleteProductAnswer = answer({ product_id: recordRef });
/** Names only, in alphabetical order (any case). */
export const productNamesAnswer = answer({ productNames: z.array(z.string()) });
export const productDetailsAnswer = answer({ products: z.array(sprayProductRecord) });
export const createTreatmentAnswer = answer({ treatment: treatmentRecord, treatment_id: recordRef, client_id: z.string() });
/** get_treatment and get_all_treatment: the treatments, removed ones included (`removed: true`). */
export const treatmentsAnswer = answer({ data: z.array(treatmentRecord) });
export const treatmentAnswer = answer({ treatment: treatmentRecord });
/** delete_treatment: the treatment as the toggle left it, and which way it went. */
export const toggleTreatmentAnswer = answer({ treatment: treatmentRecord, removed: z.boolean() });
export const linkTreatmentProductsAnswer = answer({ application: sprayApplicationRecord, application_id: recordRef, client_id: z.string() });
