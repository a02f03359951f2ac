/**
 * Spray products, treatments and spray records (issue 14; spec part 2 §3, §4, §7, §8).
 *
 * - Products are company configuration: Admins add, update and delete them; anyone reads them.
 * - A treatment is the company's record of a treatment type for a product (one per type and product:
 *   the spec's calls name it so). Any member creates and updates one; removing it (delete_treatment) is
 *   an Admin's deletion, and a toggle: removed treatments stay listed with `removed: true` and the same
 *   call restores them.
 * - A spray record (link_treatment_products_gridboxes) is floor work: any member records one, with the
 *   ends of its product's re-entry and pre-harvest intervals fixed from the product as it is then.
 *
 * Every change is audited and travels in the `operations` collection.
 */
import type { FastifyRequest } from 'fastify';
import type { Updateable } from 'kysely';
import { auditTitles } from '../../../common/messages/audit-titles';
import { httpMessages } from '../../../common/messages/http';
import { type TreatmentType, treatmentMessages as m } from '../../../common/messages/treatments';
import {
  addSprayProductAnswer,
  addSprayProductBody,
  createTreatmentAnswer,
  createTreatmentBody,
  deleteProductAnswer,
  deleteProductBody,
  deleteTreatmentBody,
  getTreatmentQuery,
  linkTreatmentProductsAnswer,
  linkTreatmentProductsBody,
  productCompanyQuery,
  productDetailsAnswer,
  productNamesAnswer,
  sprayIntervalEnds,
  sprayProductAnswer,
  toggleTreatmentAnswer,
  treatmentAnswer,
  treatmentsAnswer,
  updateSprayProductBody,
  updateTreatmentBody,
} from '../../../common/schemas/treatments';
import type { SprayProductsTable } from '../../db/schema';
import { actedAtOf, writer } from '../../db/writes';
import { conflict, conflictOnUnique, notFound } from '../../http/errors';
import { actingCompany } from '../../http/guards';
import { type App, fieldsFromQueryAndBody, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { sprayApplicationJson, sprayProductJson, treatmentJson, treatmentQueries } from './queries';

const addProductSchema = { body: addSprayProductBody, response: { 200: addSprayProductAnswer } };
const updateProductSchema = { body: updateSprayProductBody, response: { 200: sprayProductAnswer } };
const deleteProductSchema = { body: deleteProductBody, response: { 200: deleteProductAnswer } };
const productNamesSchema = { querystring: productCompanyQuery, response: { 200: productNamesAnswer } };
const productDetailsSchema = { querystring: productCompanyQuery, response: { 200: productDetailsAnswer } };
const createTreatmentSchema = { body: createTreatmentBody, response: { 200: createTreatmentAnswer } };
const getTreatmentSchema = { querystring: getTreatmentQuery, response: { 200: treatmentsAnswer } };
const allTreatmentSchema = { querystring: productCompanyQuery, response: { 200: treatmentsAnswer } };
const updateTreatmentSchema = { body: updateTreatmentBody, response: { 200: treatmentAnswer } };
const deleteTreatmentSchema = { body: deleteTreatmentBody, response: { 200: toggleTreatmentAnswer } };
const linkProductsSchema = { body: linkTreatmentProductsBody, response: { 200: linkTreatmentProductsAnswer } };

const notFoundHere = (what: string) => notFound(httpMessages.recordNotFound(what));

async function productOf(request: FastifyRequest, productId: number, companyId: number) {
  const product = await treatmentQueries.productInCompany(request.db, productId, companyId);
  if (!product) throw notFoundHere(`spray_product ${productId}`);
  return product;
}

async function treatmentOf(request: FastifyRequest, companyId: number, type: TreatmentType, productId: number) {
  const treatment = await treatmentQueries.treatmentOf(request.db, companyId, type, productId);
  if (!treatment) throw notFoundHere(`${type} treatment of spray_product ${productId}`);
  return treatment;
}

/** Names are the company's once, whatever their case; `exceptId`: the product being renamed. */
async function assertNameFree(request: FastifyRequest, companyId: number, name: string, exceptId?: number) {
  const holder = await treatmentQueries.productNamed(request.db, companyId, name);
  if (holder && holder.id !== exceptId) throw conflict(m.productNameTaken(holder.name));
}

async function addSprayProduct(request: RequestOf<typeof addProductSchema>) {
  const { company_id, ProductName, ActiveIngredient, Rate, RateUnit, ReentryHours, PreharvestDays, details, client_id } = request.body;
  const actor = actorOfRequest(request, company_id);
  await assertNameFree(request, company_id, ProductName);
  const created = await writer(request.db, actor)
    .insert('spray_products', {
      client_id,
      company_id,
      name: ProductName,
      active_ingredient: ActiveIngredient ?? null,
      rate: Rate ?? null,
      rate_unit: RateUnit ?? null,
      reentry_hours: ReentryHours ?? null,
      preharvest_days: PreharvestDays ?? null,
      details: JSON.stringify(details),
    })
    // Two adds of one name racing: the index decides.
    .catch(conflictOnUnique('spray_products_name', m.productNameTaken(ProductName)));
  await recordAudit(request.db, actor, { title: auditTitles.addedSprayProduct(ProductName), details: { product_id: created.id } });
  const product = sprayProductJson(await treatmentQueries.productById(request.db, created.id));
  return success({ product, product_id: created.id, client_id: created.client_id }, m.productAdded);
}

/** Merges only the fields sent; a request that sends none changes (and records) nothing. */
async function updateSprayProduct(request: RequestOf<typeof updateProductSchema>) {
  const { product_id, company_id, ProductName, ActiveIngredient, Rate, RateUnit, ReentryHours, PreharvestDays, details } = request.body;
  const companyId = actingCompany(request, company_id);
  const product = await productOf(request, product_id, companyId);
  const changes: Updateable<SprayProductsTable> = {};
  if (ProductName !== undefined && ProductName !== product.name) {
    await assertNameFree(request, companyId, ProductName, product.id);
    changes.name = ProductName;
  }
  if (ActiveIngredient !== undefined) changes.active_ingredient = ActiveIngredient;
  if (Rate !== undefined) changes.rate = Rate;
  if (RateUnit !== undefined) changes.rate_unit = RateUnit;
  if (ReentryHours !== undefined) changes.reentry_hours = ReentryHours;
  if (PreharvestDays !== undefined) changes.preharvest_days = PreharvestDays;
  if (Object.keys(details).length > 0) {
    // A detail sent blank (or null) is dropped; the others replace or join the product's.
    const merged: Record<string, unknown> = { ...sprayProductJson(product).details };
    for (const [name, value] of Object.entries(details)) {
      if (value === null || (typeof value === 'string' && value.trim() === '')) delete merged[name];
      else merged[name] = value;
    }
    changes.details = JSON.stringify(merged);
  }
  if (Object.keys(changes).length === 0) return success({ product: sprayProductJson(product) }, m.productUnchanged);
  const actor = actorOfRequest(request, companyId);
  const updated = await writer(request.db, actor)
    .updateReturning('spray_products', product.id, changes)
    .catch(conflictOnUnique('spray_products_name', m.productNameTaken(ProductName ?? product.name)));
  if (!updated) throw notFoundHere(`spray_product ${product.id}`);
  await recordAudit(request.db, actor, {
    title: auditTitles.updatedSprayProduct(updated.name),
    details: { product_id: product.id, fields: Object.keys(changes) },
  });
  return success({ product: sprayProductJson(updated) }, m.productUpdated);
}

/**
 * A deleted product takes its treatments with it (gone for good, as the product); past sprays of it
 * stay in the record, with its name and the intervals they were given. Its name is free again.
 */
async function deleteProduct(request: RequestOf<typeof deleteProductSchema>) {
  const { product_id, company_id } = request.body;
  const product = await productOf(request, product_id, company_id);
  const actor = actorOfRequest(request, company_id);
  const write = writer(request.db, actor);
  await write.softDelete('spray_products', product.id);
  const treatmentIds = await write.softDeleteWhere('treatments', 'product_id', [product.id]);
  await recordAudit(request.db, actor, { title: auditTitles.deletedSprayProduct(product.name), details: { product_id: product.id, treatment_ids: treatmentIds } });
  return success({ product_id: product.id }, m.productDeleted);
}

async function getProductNames(request: RequestOf<typeof productNamesSchema>) {
  const products = await treatmentQueries.productsByCompany(request.db, request.query.company_id);
  return success({ productNames: products.map((product) => product.name) });
}

async function getProductDetails(request: RequestOf<typeof productDetailsSchema>) {
  const products = await treatmentQueries.productsByCompany(request.db, request.query.company_id);
  return success({ products: products.map(sprayProductJson) });
}

async function createTreatment(request: RequestOf<typeof createTreatmentSchema>) {
  const { treatment_type, data, product_id, sub_type, company_id, client_id } = request.body;
  const companyId = actingCompany(request, company_id);
  const product = await productOf(request, product_id, companyId);
  const taken = m.treatmentExists(treatment_type);
  // One per type and product, removed ones included: a removed treatment is restored, not made again.
  if (await treatmentQueries.treatmentOf(request.db, companyId, treatment_type, product.id)) throw conflict(taken);
  const actor = actorOfRequest(request, companyId);
  const created = await writer(request.db, actor)
    .insert('treatments', {
      client_id,
      company_id: companyId,
      treatment_type,
      sub_type: sub_type ?? null,
      product_id: product.id,
      data: JSON.stringify(data),
      removed_at: null,
      user_id: actor.userId,
    })
    .catch(conflictOnUnique('treatments_type', taken));
  await recordAudit(request.db, actor, { title: auditTitles.treatments[treatment_type].created(product.name), details: { treatment_id: created.id, product_id: product.id } });
  const treatment = treatmentJson(await treatmentQueries.treatmentById(request.db, created.id));
  return success({ treatment, treatment_id: created.id, client_id: created.client_id }, m.treatmentCreated);
}

/** The company's treatments of a type (of one product when named), removed ones included. */
async function getTreatment(request: RequestOf<typeof getTreatmentSchema>) {
  const { treatment_type, company_id, product_id } = request.query;
  const treatments = await treatmentQueries.treatments(request.db, company_id, { type: treatment_type, productId: product_id });
  return success({ data: treatments.map(treatmentJson) });
}

async function getAllTreatment(request: RequestOf<typeof allTreatmentSchema>) {
  const treatments = await treatmentQueries.treatments(request.db, request.query.company_id);
  return success({ data: treatments.map(treatmentJson) });
}

/**
 * `data` replaces the treatment's (a PUT); `sub_type` changes only when sent. A removed treatment can
 * be edited too (it stays removed): an edit made offline is not lost to a removal made elsewhere.
 */
async function updateTreatment(request: RequestOf<typeof updateTreatmentSchema>) {
  const { treatment_type, data, company_id, product_id, sub_type } = request.body;
  const product = await productOf(request, product_id, company_id);
  const treatment = await treatmentOf(request, company_id, treatment_type, product.id);
  const actor = actorOfRequest(request, company_id);
  const updated = await writer(request.db, actor).updateReturning('treatments', treatment.id, {
    data: JSON.stringify(data),
    ...(sub_type === undefined ? {} : { sub_type }),
  });
  if (!updated) throw notFoundHere(`${treatment_type} treatment of spray_product ${product.id}`);
  await recordAudit(request.db, actor, { title: auditTitles.treatments[treatment_type].updated(product.name), details: { treatment_id: treatment.id, product_id: product.id } });
  return success({ treatment: treatmentJson(updated) }, m.treatmentUpdated);
}

/** The toggle: removes a treatment, or restores a removed one (or sets the state `removed` names). */
async function deleteTreatment(request: RequestOf<typeof deleteTreatmentSchema>) {
  const { treatment_type, company_id, product_id, removed } = request.body;
  const product = await productOf(request, product_id, company_id);
  const treatment = await treatmentOf(request, company_id, treatment_type, product.id);
  const wasRemoved = treatment.removed_at !== null;
  const remove = removed ?? !wasRemoved;
  const message = remove ? m.treatmentRemoved : m.treatmentRestored;
  if (remove === wasRemoved) return success({ treatment: treatmentJson(treatment), removed: remove }, message);
  const actor = actorOfRequest(request, company_id);
  const updated = await writer(request.db, actor).updateReturning('treatments', treatment.id, { removed_at: remove ? actedAtOf(actor) : null });
  if (!updated) throw notFoundHere(`${treatment_type} treatment of spray_product ${product.id}`);
  await recordAudit(request.db, actor, {
    title: remove ? auditTitles.treatments[treatment_type].removed(product.name) : auditTitles.treatments[treatment_type].restored(product.name),
    details: { treatment_id: treatment.id, product_id: product.id },
  });
  return success({ treatment: treatmentJson(updated), removed: remove }, message);
}

/**
 * A spray of a product on grid boxes. Each box gets an entry in its history (the audit trail, by box).
 * Without an ApplicationDate the spray happened when the act was done (X-Acted-At).
 */
async function linkTreatmentProducts(request: RequestOf<typeof linkProductsSchema>) {
  const { company_id, ApplicationDate, product_id, ProductName, QuantityUsed, QuantityUnit, Notes, Grid_boxIDs, client_id } = request.body;
  const companyId = actingCompany(request, company_id);
  const product =
    product_id !== undefined ? await productOf(request, product_id, companyId) : await treatmentQueries.productNamed(request.db, companyId, ProductName ?? '');
  const boxIds = [...new Set(Grid_boxIDs)];
  // The guard has proven each box the caller's to act on; a SuperAdmin's must also be this company's.
  const boxes = await treatmentQueries.liveBoxesOf(request.db, companyId, boxIds);
  const found = new Set(boxes.map((box) => box.id));
  const missing = boxIds.find((id) => !found.has(id));
  if (missing !== undefined) throw notFoundHere(`grid_box ${missing}`);
  const appliedAt = ApplicationDate === undefined ? request.actedAt : new Date(ApplicationDate);
  const { reentryUntil, preharvestUntil } = sprayIntervalEnds(appliedAt, product ? sprayProductJson(product) : null);
  const productName = product?.name ?? ProductName ?? '';
  const actor = actorOfRequest(request, companyId);
  const created = await writer(request.db, actor).insert('spray_applications', {
    client_id,
    company_id: companyId,
    product_id: product?.id ?? null,
    product_name: productName,
    application_date: appliedAt,
    quantity_used: QuantityUsed,
    quantity_unit: QuantityUnit ?? null,
    notes: Notes ?? null,
    grid_box_ids: boxIds,
    reentry_until: reentryUntil,
    preharvest_until: preharvestUntil,
    user_id: actor.userId,
  });
  const title = QuantityUnit ? auditTitles.sprayed(productName, QuantityUsed, QuantityUnit) : auditTitles.sprayedWithoutUnit(productName, QuantityUsed);
  for (const box of boxes) {
    await recordAudit(request.db, actor, { title, roomId: box.room_id, gridBoxId: box.id, details: { application_id: created.id, product_id: product?.id ?? null } });
  }
  const application = sprayApplicationJson(await treatmentQueries.applicationById(request.db, created.id));
  return success({ application, application_id: created.id, client_id: created.client_id }, m.productsLinked);
}

export async function treatmentRoutes(app: App) {
  const fields = { preValidation: fieldsFromQueryAndBody };
  const admin = { access: 'admin' as const };
  app.post('/add_spray_product', { schema: addProductSchema, config: admin, ...fields }, addSprayProduct);
  app.post('/update_spray_product', { schema: updateProductSchema, config: admin, ...fields }, updateSprayProduct);
  app.delete('/delete_product', { schema: deleteProductSchema, config: admin, ...fields }, deleteProduct);
  app.get('/get_product_names', { schema: productNamesSchema }, getProductNames);
  app.get('/get_product_details', { schema: productDetailsSchema }, getProductDetails);
  app.post('/create_treatment', { schema: createTreatmentSchema, ...fields }, createTreatment);
  app.get('/get_treatment', { schema: getTreatmentSchema }, getTreatment);
  app.get('/get_all_treatment', { schema: allTreatmentSchema }, getAllTreatment);
  app.put('/update_treatment', { schema: updateTreatmentSchema, ...fields }, updateTreatment);
  app.patch('/delete_treatment', { schema: deleteTreatmentSchema, config: admin, ...fields }, deleteTreatment);
  app.post('/link_treatment_products_gridboxes', { schema: linkProductsSchema, ...fields }, linkTreatmentProducts);
}
