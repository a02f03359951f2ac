/**
 * Domain functions of spray products, treatments and sprays (spec part 2 §3, §4, §7, §8). All three are
 * `operations` documents (kinds `spray_product`, `treatment`, `spray_application`) keyed by their client
 * ids, and name each other (a treatment's and a spray's `product_id`, a spray's `Grid_boxIDs`) by client
 * id. Every change is queued with its optimistic document, so it works offline and reaches the server
 * once; the reads of the spec's calls go to the server (the screens read the local store).
 *
 * Where the spec is silent: a product name the tablet already holds (any case), or a second treatment of
 * a type for a product, is refused here with the server's own message, before it would fail in the
 * outbox; the remove/restore toggle sends the state it means (`removed`), so a replay never undoes it.
 */
import type { z } from 'zod';
import { newClientId, isClientId } from '../../common/client-ids';
import { changeLabels, labelNaming } from '../../common/messages/changes';
import { type TreatmentType, treatmentMessages as m } from '../../common/messages/treatments';
import {
  addSprayProductBody,
  createTreatmentBody,
  deleteProductBody,
  deleteTreatmentBody,
  getTreatmentQuery,
  linkTreatmentProductsBody,
  productCompanyQuery,
  type productDetailsAnswer,
  type productNamesAnswer,
  sprayIntervalEnds,
  type SprayApplicationRecord,
  type SprayProductRecord,
  type TreatmentRecord,
  type treatmentsAnswer,
  updateSprayProductBody,
  updateTreatmentBody,
} from '../../common/schemas/treatments';
import { type ApiContext, check, json, now, online, record, ValidationError } from './context';
import { findLocal } from '../db/local-store';
import type { RecordId } from './records';

type Id = RecordId;

/** A number typed in a form (text: blank leaves it out on add and clears it on update), or a number. */
export type Amount = number | string | null;

type Stored<T> = T & { id: string; kind: string; serverId?: number };
export type SprayProductDocument = Stored<SprayProductRecord>;
export type TreatmentDocument = Stored<TreatmentRecord>;
export type SprayApplicationDocument = Stored<SprayApplicationRecord>;

const signedInUserId = async (context: ApiContext) => (await context.client.session.get())?.user_id ?? null;

/** A product of the tablet by the id a call names: its client id (its document's key), or the server's integer id. */
async function localProduct(context: ApiContext, productId: Id): Promise<SprayProductDocument | null> {
  if (isClientId(productId)) return (await context.store.get('operations', productId)) as SprayProductDocument | null;
  const [found] = await findLocal(context, 'operations', { kind: 'spray_product', serverId: Number(productId) });
  return (found as SprayProductDocument | undefined) ?? null;
}

/** The tablet's name of a product: its client id when the tablet holds it (the documents name it so), else the id given. */
const productKey = (product: SprayProductDocument | null, productId: Id): Id => product?.id ?? productId;

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

async function localProducts(context: ApiContext, companyId: number) {
  return (await findLocal(context, 'operations', { kind: 'spray_product', company_id: companyId })) as SprayProductDocument[];
}

async function localTreatmentOf(context: ApiContext, companyId: number, type: TreatmentType, productKey: Id) {
  const [found] = await findLocal(context, 'operations', { kind: 'treatment', company_id: companyId, treatment_type: type, product_id: productKey });
  return (found as TreatmentDocument | undefined) ?? null;
}

/** Only the amounts given: blank text and null stay as the schema made them (left out on add, cleared on update). */
const given = <T extends Record<string, unknown>>(fields: T) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;

// ——— Spray products ———

export interface ProductFields {
  productName?: string;
  activeIngredient?: string | null;
  rate?: Amount;
  rateUnit?: string | null;
  /** Re-entry interval, hours. */
  reentryHours?: Amount;
  /** Pre-harvest interval, days. */
  preharvestDays?: Amount;
}

/**
 * add_spray_product (spec §7): the company and a name ('company_id is required.', 'ProductName is
 * required.'), amounts from 0 ('Rate must be a number of at least 0.', the ReentryHours and
 * PreharvestDays messages). Queued: the product is in the local list at once under its client id.
 * Admin-only on the server. Fails on the server with 'Failed to add spray product.' when it says nothing.
 */
export async function addSprayProduct(context: ApiContext, input: ProductFields & { companyId: number }) {
  const values = check(addSprayProductBody, {
    company_id: input.companyId,
    ProductName: input.productName,
    ActiveIngredient: input.activeIngredient ?? undefined,
    Rate: input.rate ?? undefined,
    RateUnit: input.rateUnit ?? undefined,
    ReentryHours: input.reentryHours ?? undefined,
    PreharvestDays: input.preharvestDays ?? undefined,
  });
  const taken = (await localProducts(context, values.company_id)).find((product) => sameName(product.ProductName, values.ProductName));
  if (taken) throw new ValidationError(m.productNameTaken(taken.ProductName));
  const productId = newClientId();
  const at = now();
  const product: SprayProductRecord = {
    product_id: productId,
    ProductName: values.ProductName,
    ActiveIngredient: values.ActiveIngredient ?? null,
    Rate: values.Rate ?? null,
    RateUnit: values.RateUnit ?? null,
    ReentryHours: values.ReentryHours ?? null,
    PreharvestDays: values.PreharvestDays ?? null,
    details: {},
    company_id: values.company_id,
    created_at: at,
    updated_at: at,
  };
  await record(context, {
    method: 'POST',
    path: '/add_spray_product',
    body: json({
      ...given({
        company_id: values.company_id,
        ProductName: values.ProductName,
        ActiveIngredient: values.ActiveIngredient,
        Rate: values.Rate,
        RateUnit: values.RateUnit,
        ReentryHours: values.ReentryHours,
        PreharvestDays: values.PreharvestDays,
      }),
      client_id: productId,
    }),
    creates: [productId],
    effects: [{ op: 'upsert', collection: 'operations', id: productId, data: { ...product, kind: 'spray_product' } }],
    label: changeLabels.addSprayProduct(values.ProductName),
    fallbackMessage: m.addProductFailed,
  });
  return { product_id: productId, product };
}

/**
 * update_spray_product (spec §7): the product ('product_id is required.'); only the fields given change,
 * an amount or text given blank (or null) is cleared; the name cannot be (the add's messages apply).
 * Queued: the local product changes at once. Admin-only on the server; fails with 'Failed to update
 * spray product.' when the server says nothing.
 */
export async function updateSprayProduct(context: ApiContext, input: ProductFields & { productId: Id; companyId: number }) {
  const values = check(updateSprayProductBody, {
    product_id: input.productId,
    company_id: input.companyId,
    ProductName: input.productName,
    ActiveIngredient: input.activeIngredient,
    Rate: input.rate,
    RateUnit: input.rateUnit,
    ReentryHours: input.reentryHours,
    PreharvestDays: input.preharvestDays,
  });
  const current = await localProduct(context, values.product_id as Id);
  if (values.ProductName !== undefined && current && !sameName(values.ProductName, current.ProductName)) {
    const taken = (await localProducts(context, input.companyId)).find((product) => product.id !== current.id && sameName(product.ProductName, values.ProductName ?? ''));
    if (taken) throw new ValidationError(m.productNameTaken(taken.ProductName));
  }
  const changes = given({
    ProductName: values.ProductName,
    ActiveIngredient: values.ActiveIngredient,
    Rate: values.Rate,
    RateUnit: values.RateUnit,
    ReentryHours: values.ReentryHours,
    PreharvestDays: values.PreharvestDays,
  });
  const productId = productKey(current, values.product_id as Id);
  const changed = Object.keys(changes).length > 0;
  await record(context, {
    method: 'POST',
    path: '/update_spray_product',
    body: json({ product_id: productId, company_id: input.companyId, ...changes }),
    // Nothing given: the server changes nothing either.
    effects: changed && current ? [{ op: 'patch', collection: 'operations', id: current.id, data: { ...changes, updated_at: now() } }] : [],
    label: labelNaming(changes.ProductName ?? current?.ProductName, changeLabels.updateSprayProduct, changeLabels.updateASprayProduct),
    fallbackMessage: m.updateProductFailed,
  });
  return { product_id: productId };
}

/**
 * delete_product (spec §7): product and company ('product_id and company_id are required.'). Queued:
 * the product and its treatments leave the local lists at once (the server deletes them together);
 * past sprays of it stay. Admin-only on the server; fails with 'Failed to delete product.'.
 */
export async function deleteProduct(context: ApiContext, input: { productId: Id; companyId: number }) {
  const values = check(deleteProductBody, { product_id: input.productId, company_id: input.companyId });
  const current = await localProduct(context, values.product_id as Id);
  const productId = productKey(current, values.product_id as Id);
  const treatments = current ? await findLocal(context, 'operations', { kind: 'treatment', product_id: current.id }) : [];
  await record(context, {
    method: 'DELETE',
    path: '/delete_product',
    body: json({ product_id: productId, company_id: values.company_id }),
    effects: [current, ...treatments].filter((document) => document !== null).map((document) => ({ op: 'remove' as const, collection: 'operations', id: document.id })),
    label: labelNaming(current?.ProductName, changeLabels.deleteSprayProduct, changeLabels.deleteASprayProduct),
    fallbackMessage: m.deleteProductFailed,
  });
  return { product_id: productId };
}

/** get_product_names (spec §7): the company's product names, alphabetical. Online; fails with 'Failed to fetch product names.'. */
export async function getProductNames(context: ApiContext, input: { companyId: number }) {
  const query = check(productCompanyQuery, { company_id: input.companyId });
  return online<z.infer<typeof productNamesAnswer>>(context, { path: '/get_product_names', query }, m.fetchProductNamesFailed);
}

/** get_product_details (spec §7): the company's products. Online; fails with 'Failed to fetch product details.'. */
export async function getProductDetails(context: ApiContext, input: { companyId: number }) {
  const query = check(productCompanyQuery, { company_id: input.companyId });
  return online<z.infer<typeof productDetailsAnswer>>(context, { path: '/get_product_details', query }, m.fetchProductDetailsFailed);
}

// ——— Treatments ———

/**
 * create_treatment (spec §7): a treatment of a type ('treatment_type must be one of …') for a product
 * ('product_id is required.'), its `data` an object; one per type and product ('This product already
 * has a … treatment.', a removed one included: it is restored instead). Queued: the treatment shows at
 * once under its client id. Fails on the server with 'Create treatment failed' when it says nothing.
 */
export async function createTreatment(
  context: ApiContext,
  input: { companyId: number; productId: Id; treatmentType: TreatmentType | string; subType?: string | null; data?: Record<string, unknown> },
) {
  const values = check(createTreatmentBody, {
    treatment_type: input.treatmentType,
    data: input.data ?? {},
    product_id: input.productId,
    sub_type: input.subType ?? undefined,
    company_id: input.companyId,
  });
  const companyId = values.company_id ?? input.companyId;
  const product = await localProduct(context, values.product_id as Id);
  const productId = productKey(product, values.product_id as Id);
  if (await localTreatmentOf(context, companyId, values.treatment_type, productId)) throw new ValidationError(m.treatmentExists(values.treatment_type));
  const treatmentId = newClientId();
  const at = now();
  const treatment: TreatmentRecord = {
    treatment_id: treatmentId,
    treatment_type: values.treatment_type,
    sub_type: values.sub_type ?? null,
    product_id: productId,
    data: values.data,
    removed: false,
    removed_at: null,
    company_id: companyId,
    user_id: await signedInUserId(context),
    created_at: at,
    updated_at: at,
  };
  await record(context, {
    method: 'POST',
    path: '/create_treatment',
    body: json({
      treatment_type: values.treatment_type,
      data: values.data,
      product_id: productId,
      ...(values.sub_type !== undefined ? { sub_type: values.sub_type } : {}),
      company_id: companyId,
      client_id: treatmentId,
    }),
    creates: [treatmentId],
    effects: [{ op: 'upsert', collection: 'operations', id: treatmentId, data: { ...treatment, kind: 'treatment' } }],
    label: labelNaming(product?.ProductName, changeLabels.treatments[values.treatment_type].createFor, changeLabels.treatments[values.treatment_type].create),
    fallbackMessage: m.createTreatmentFailed,
  });
  return { treatment_id: treatmentId, treatment };
}

/** get_treatment (spec §7): the company's treatments of a type, of one product when named. Online; fails with 'Fetch treatment failed'. */
export async function getTreatment(context: ApiContext, input: { companyId: number; treatmentType: TreatmentType | string; productId?: Id }) {
  const query = check(getTreatmentQuery, { treatment_type: input.treatmentType, company_id: input.companyId, product_id: input.productId });
  return online<z.infer<typeof treatmentsAnswer>>(context, { path: '/get_treatment', query: given(query) }, m.fetchTreatmentFailed);
}

/** get_all_treatment (spec §7): every treatment of the company, removed ones too. Online; fails with 'Fetch all treatment failed'. */
export async function getAllTreatment(context: ApiContext, input: { companyId: number }) {
  const query = check(productCompanyQuery, { company_id: input.companyId });
  return online<z.infer<typeof treatmentsAnswer>>(context, { path: '/get_all_treatment', query }, m.fetchAllTreatmentFailed);
}

/**
 * update_treatment (spec §7): the treatment of a type for a product ('product_id and company_id are
 * required.'); `data` replaces the old, `subType` changes only when given (blank clears it). Queued:
 * the local treatment changes at once. Fails on the server with 'Update treatment failed'.
 */
export async function updateTreatment(
  context: ApiContext,
  input: { companyId: number; productId: Id; treatmentType: TreatmentType | string; data: Record<string, unknown>; subType?: string | null },
) {
  const values = check(updateTreatmentBody, { treatment_type: input.treatmentType, data: input.data, company_id: input.companyId, product_id: input.productId, sub_type: input.subType });
  const product = await localProduct(context, values.product_id as Id);
  const productId = productKey(product, values.product_id as Id);
  const current = await localTreatmentOf(context, values.company_id, values.treatment_type, productId);
  const changes = { data: values.data, ...(values.sub_type !== undefined ? { sub_type: values.sub_type } : {}) };
  await record(context, {
    method: 'PUT',
    path: '/update_treatment',
    body: json({ treatment_type: values.treatment_type, company_id: values.company_id, product_id: productId, ...changes }),
    effects: current ? [{ op: 'patch', collection: 'operations', id: current.id, data: { ...changes, updated_at: now() } }] : [],
    label: labelNaming(product?.ProductName, changeLabels.treatments[values.treatment_type].updateFor, changeLabels.treatments[values.treatment_type].update),
    fallbackMessage: m.updateTreatmentFailed,
  });
  return { treatment_id: current?.id ?? null };
}

/**
 * delete_treatment (spec §4, §7): the toggle. Removes the treatment of a type for a product, or
 * restores a removed one ('product_id and company_id are required.'); `removed` says which outright,
 * otherwise the opposite of what the tablet shows. Queued: the local treatment shows its new state at
 * once. Admin-only on the server; fails with 'Toggle delete failed'. Answers the state it asked for.
 */
export async function toggleTreatment(context: ApiContext, input: { companyId: number; productId: Id; treatmentType: TreatmentType | string; removed?: boolean }) {
  const values = check(deleteTreatmentBody, { treatment_type: input.treatmentType, company_id: input.companyId, product_id: input.productId, removed: input.removed });
  const product = await localProduct(context, values.product_id as Id);
  const productId = productKey(product, values.product_id as Id);
  const current = await localTreatmentOf(context, values.company_id, values.treatment_type, productId);
  const removed = values.removed ?? !(current?.removed ?? false);
  const at = now();
  await record(context, {
    method: 'PATCH',
    path: '/delete_treatment',
    body: json({ treatment_type: values.treatment_type, company_id: values.company_id, product_id: productId, removed }),
    effects: current ? [{ op: 'patch', collection: 'operations', id: current.id, data: { removed, removed_at: removed ? at : null, updated_at: at } }] : [],
    label: removed
      ? labelNaming(product?.ProductName, changeLabels.treatments[values.treatment_type].removeFor, changeLabels.treatments[values.treatment_type].remove)
      : labelNaming(product?.ProductName, changeLabels.treatments[values.treatment_type].restoreFor, changeLabels.treatments[values.treatment_type].restore),
    fallbackMessage: m.toggleDeleteFailed,
  });
  return { removed };
}

// ——— Sprays ———

/**
 * link_treatment_products_gridboxes (spec §3, §7): a spray of a product (by id, or by a name: the
 * company's product of that name, else free text without intervals; 'ProductName or product_id is
 * required.') on grid boxes ('Grid_boxIDs must list from 1 to … grid box ids.'), a positive quantity
 * ('QuantityUsed must be a positive number.'). `applicationDate` (ISO with its zone) is when it was
 * sprayed; without it, when this call is made (offline too: not when it syncs). Queued:
 * the spray shows at once with its re-entry and pre-harvest ends worked out from the local product as
 * the server will. Fails on the server with 'Failed to link treatment products.'.
 */
export async function sprayBoxes(
  context: ApiContext,
  input: { companyId: number; productId?: Id | null; productName?: string; quantityUsed: Amount; quantityUnit?: string | null; notes?: string | null; applicationDate?: string; gridBoxIds: readonly Id[] },
) {
  const values = check(linkTreatmentProductsBody, {
    company_id: input.companyId,
    product_id: input.productId ?? undefined,
    ProductName: input.productName,
    QuantityUsed: input.quantityUsed,
    QuantityUnit: input.quantityUnit ?? undefined,
    Notes: input.notes ?? undefined,
    ApplicationDate: input.applicationDate,
    Grid_boxIDs: [...input.gridBoxIds],
  });
  const companyId = values.company_id ?? input.companyId;
  const named = values.product_id === undefined ? null : await localProduct(context, values.product_id as Id);
  const product = named ?? (values.ProductName === undefined ? null : ((await localProducts(context, companyId)).find((each) => sameName(each.ProductName, values.ProductName ?? '')) ?? null));
  const productId = values.product_id === undefined ? (product?.id ?? null) : productKey(product, values.product_id as Id);
  const boxIds = [...new Set((values.Grid_boxIDs as Id[]).map(String))].map((id) => (isClientId(id) ? id : Number(id)));
  const applicationDate = values.ApplicationDate ? new Date(values.ApplicationDate).toISOString() : now();
  const { reentryUntil, preharvestUntil } = sprayIntervalEnds(new Date(applicationDate), product);
  const applicationId = newClientId();
  const productName = product?.ProductName ?? values.ProductName ?? '';
  const application: SprayApplicationRecord = {
    application_id: applicationId,
    ApplicationDate: applicationDate,
    product_id: productId,
    ProductName: productName,
    QuantityUsed: values.QuantityUsed,
    QuantityUnit: values.QuantityUnit ?? null,
    Notes: values.Notes ?? null,
    Grid_boxIDs: boxIds,
    reentry_until: reentryUntil?.toISOString() ?? null,
    preharvest_until: preharvestUntil?.toISOString() ?? null,
    company_id: companyId,
    user_id: await signedInUserId(context),
    created_at: now(),
  };
  await record(context, {
    method: 'POST',
    path: '/link_treatment_products_gridboxes',
    body: json({
      company_id: companyId,
      // A product the tablet names by id is sent by id (renamed meanwhile, it is still the one meant).
      ...(productId !== null ? { product_id: productId } : { ProductName: productName }),
      QuantityUsed: values.QuantityUsed,
      ...given({ QuantityUnit: values.QuantityUnit, Notes: values.Notes }),
      // Always sent: the server's copy then has the very moment the tablet shows (the act's time otherwise differs by the moments the call took).
      ApplicationDate: applicationDate,
      Grid_boxIDs: boxIds,
      client_id: applicationId,
    }),
    creates: [applicationId],
    effects: [{ op: 'upsert', collection: 'operations', id: applicationId, data: { ...application, kind: 'spray_application' } }],
    label: boxIds.length === 1 ? changeLabels.sprayOnBox(productName) : changeLabels.sprayOnBoxes(productName, boxIds.length),
    fallbackMessage: m.linkProductsFailed,
  });
  return { application_id: applicationId, application };
}

export { treatmentMessages } from '../../common/messages/treatments';
