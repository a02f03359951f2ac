/**
 * Small factories for test data: companies with signed-in users of each role. Users are created in the
 * database the way the CLI does it; their tokens come from the real /login.
 */
import type { Role } from '../../common/roles';
import { addUser, createCompanyWithAdmin } from '../../server/companies';
import { systemActor, writer } from '../../server/db/writes';
import { gridQueries } from '../../server/domains/grids/queries';
import type { TestServer } from './server';

/** What the factories need of a server: its database and its API. */
type Server = Pick<TestServer, 'database' | 'request'>;

export interface SignedInUser {
  id: number;
  email: string;
  password: string;
  role: Role;
  companyId: number;
  token: string;
  refreshToken: string;
}

export interface Tenant {
  companyId: number;
  admin: SignedInUser;
  regular: SignedInUser;
}

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${(counter += 1)}`;

export async function signIn(server: Server, email: string, password: string) {
  const response = await server.request<{ access_token: string; refresh_token: string; user_id: number; user_role: Role; company_id: number }>('POST', '/login', {
    form: { email, password },
  });
  if (response.status !== 200) throw new Error(`sign-in of ${email} failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function createUser(server: Server, companyId: number, role: Role, name = unique(role.toLowerCase())): Promise<SignedInUser> {
  const email = `${name}@example.test`;
  const password = `pw-${name}`;
  const id = await addUser(server.database.db, companyId, { email, password, role, name: [role, name] });
  const session = await signIn(server, email, password);
  return { id, email, password, role, companyId, token: session.access_token, refreshToken: session.refresh_token };
}

/** A company with a signed-in Admin and a signed-in Regular user. */
export async function createTenant(server: Server, name = unique('Farm')): Promise<Tenant> {
  const email = `${unique('admin')}@example.test`;
  const password = `pw-${unique('admin')}`;
  const { company_id, user_id } = await createCompanyWithAdmin(server.database.db, { name, adminEmail: email, adminPassword: password });
  const session = await signIn(server, email, password);
  const admin: SignedInUser = { id: user_id, email, password, role: 'Admin', companyId: company_id, token: session.access_token, refreshToken: session.refresh_token };
  const regular = await createUser(server, company_id, 'Regular');
  return { companyId: company_id, admin, regular };
}

/** The platform operator, in a company of its own. */
export async function createSuperAdmin(server: TestServer): Promise<SignedInUser> {
  const tenant = await createTenant(server, unique('Platform'));
  return createUser(server, tenant.companyId, 'SuperAdmin');
}

/** A room of the company, written straight to the database (for tests of other domains). */
export async function createRoom(server: Server, companyId: number, name = unique('Room')): Promise<number> {
  const { id } = await writer(server.database.db, systemActor(companyId)).insert('rooms', { company_id: companyId, name, description: `${name} for tests` });
  return id;
}

/** A disease scan of the company (of a room, or of none), written straight to the database: scans come from the camera. */
export async function createScan(server: Pick<TestServer, 'database'>, companyId: number, roomId: number | null = null): Promise<number> {
  const { id } = await writer(server.database.db, systemActor(companyId)).insert('scans', {
    company_id: companyId,
    room_id: roomId,
    grid_id: null,
    grid_box_id: null,
    file_id: null,
    model: 'plantDiseaseRecognition',
    result: null,
    user_id: null,
  });
  return id;
}

/** A batch of the company, written straight to the database (for tests of other domains). */
export async function createBatch(server: Server, companyId: number, batchNumber = unique('B')): Promise<number> {
  const { id } = await writer(server.database.db, systemActor(companyId)).insert('batches', {
    company_id: companyId,
    batch_number: batchNumber,
    number_of_plants: 10,
    strain_name: 'Test strain',
    batch_status: 'Vegetative',
    color: null,
    start_date: null,
    end_date: null,
    harvested_at: null,
    harvested_by: null,
  });
  return id;
}

/** A grid of nx × ny boxes in a room, written straight to the database; returns its id and box ids (row by row). */
export async function createGrid(server: Server, companyId: number, roomId: number, nx = 2, ny = 2, name = unique('Grid')) {
  const id = await gridQueries.createWithBoxes(server.database.db, systemActor(companyId), { roomId, name, nx, ny });
  const boxes = await gridQueries.boxesOfGrids(server.database.db, [id]);
  return { id, boxIds: boxes.map((box) => box.id) };
}

/**
 * A form template made through save_form_template by an Admin (as the form builder makes one); returns
 * its id and its fields' ids, in the order given.
 */
export async function createFormTemplate(
  server: Server,
  admin: Pick<SignedInUser, 'token'>,
  companyId: number,
  template: { name: string; category: string; fields: Array<{ name: string; type: string; options?: string[] }> },
): Promise<{ templateId: number; fieldIds: number[] }> {
  const saved = await server.request<{ template_id: number; template: { fields: Array<{ FieldID: number }> } }>('POST', '/save_form_template', {
    token: admin.token,
    json: {
      templateName: template.name,
      companyID: companyId,
      formCategory: template.category,
      fields: template.fields.map((field) => ({ fieldName: field.name, fieldType: field.type, fieldOptions: field.options ?? [], isRequired: 0 })),
    },
  });
  if (saved.status !== 200) throw new Error(`save_form_template answered ${saved.status}: ${JSON.stringify(saved.body)}`);
  return { templateId: saved.body.template_id, fieldIds: saved.body.template.fields.map((field) => field.FieldID) };
}

/** Tables whose rows hold their client id (a grid box's is kept in grid_box_client_ids). */
type ClientNamedTable = 'rooms' | 'grids' | 'grid_boxes' | 'sub_gridboxes' | 'batches' | 'batch_problems' | 'trays' | 'tray_templates' | 'grid_templates' | 'form_templates' | 'form_fields' | 'form_responses' | 'audit_events' | 'plant_moves' | 'plant_problems' | 'spray_products' | 'treatments' | 'spray_applications' | 'saved_reports';

/**
 * The client ids of server rows, in the order of `ids`: how a tablet names records the server made
 * (src/db/schemas.ts), e.g. to find a factory's room in a tablet's local store.
 */
export async function clientIdsOf(server: Server, table: ClientNamedTable, ids: readonly number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows =
    table === 'grid_boxes'
      ? await server.database.db.selectFrom('grid_box_client_ids').select(['grid_box_id as id', 'client_id']).where('grid_box_id', 'in', [...ids]).execute()
      : await server.database.db.selectFrom(table).select(['id', 'client_id']).where('id', 'in', [...ids]).execute();
  const byId = new Map(rows.map((row) => [row.id, row.client_id]));
  return ids.map((id) => {
    const clientId = byId.get(id);
    if (!clientId) throw new Error(`No ${table} row ${id}`);
    return clientId;
  });
}

/** The client id of one server row (see clientIdsOf). */
export const clientIdOf = async (server: Server, table: ClientNamedTable, id: number): Promise<string> => (await clientIdsOf(server, table, [id]))[0] as string;
