import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsMessages as m } from '../../common/messages/settings';
import { buildApp } from '../../server/app';
import { openDatabase } from '../../server/db/database';
import { createTenant, type Tenant } from '../support/factories';
import { databaseKind, requester, startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let other: Tenant;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
});
afterAll(() => server.close());

const get = (path: string, token: string, query: Record<string, string | number> = {}) => server.request('GET', path, { token, query });
const post = (path: string, token: string, query: Record<string, string | number> = {}, form?: Record<string, string>) =>
  server.request('POST', path, { token, query, ...(form ? { form } : {}) });

describe('defaults of a new company', () => {
  it.each([
    ['/get_company_grid_order', 'grid_order', 'row'],
    ['/get_grid_opacity', 'grid_opacity', 1],
    ['/get_company_offline_mode', 'offline_mode', 1],
    ['/get_company_ai_model', 'ai_model', 'plantDiseaseRecognition'],
    ['/get_company_auto_refresh_mode', 'auto_refresh_mode', 0],
    ['/get_stickytrap_render', 'stickytrap_render', 1],
    ['/get_company_language', 'language', 'en'],
  ])('%s answers %s = %s to a Regular user', async (path, field, value) => {
    const response = await get(path, farm.regular.token, { company_id: farm.companyId });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', [field]: value });
  });

  it('get_stickytrap_render defaults to the caller’s company', async () => {
    const response = await get('/get_stickytrap_render', farm.regular.token);
    expect(response.body).toMatchObject({ status: 'success', stickytrap_render: 1 });
  });
});

describe('reading another company’s settings', () => {
  it.each(['/get_company_grid_order', '/get_grid_opacity', '/get_company_offline_mode', '/get_company_ai_model', '/get_company_auto_refresh_mode', '/get_stickytrap_render', '/get_company_language', '/get_company_thresholds'])(
    '%s answers 403',
    async (path) => {
      const response = await get(path, farm.admin.token, { company_id: other.companyId });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ status: 'error' });
    },
  );
});

describe('missing company id, in the spec’s words', () => {
  it.each([
    ['/get_company_grid_order', m.getGridOrderCompanyMissing],
    ['/get_company_offline_mode', m.offlineModeCompanyMissing],
    ['/get_company_language', m.languageCompanyRequired],
    ['/get_grid_opacity', m.companyIdRequired],
    ['/get_company_ai_model', m.companyIdRequired],
    ['/get_company_auto_refresh_mode', m.companyIdRequired],
    ['/get_company_thresholds', m.companyIdRequired],
  ])('%s without company_id answers 400 "%s"', async (path, message) => {
    const response = await get(path, farm.regular.token);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message });
  });
});

describe('grid order', () => {
  it('an Admin sets it as a form field and everyone reads it back', async () => {
    const set = await post('/set_company_grid_order', farm.admin.token, { company_id: farm.companyId }, { grid_order: 'snake_row' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ status: 'success', grid_order: 'snake_row' });
    const read = await get('/get_company_grid_order', farm.regular.token, { company_id: farm.companyId });
    expect(read.body).toMatchObject({ grid_order: 'snake_row' });
  });

  it('answers the spec messages for a missing company or grid order, and names the allowed values', async () => {
    expect((await post('/set_company_grid_order', farm.admin.token, {}, { grid_order: 'row' })).body).toEqual({ status: 'error', message: m.gridOrderCompanyMissing });
    expect((await post('/set_company_grid_order', farm.admin.token, { company_id: farm.companyId })).body).toEqual({ status: 'error', message: m.gridOrderMissing });
    const invalid = await post('/set_company_grid_order', farm.admin.token, { company_id: farm.companyId }, { grid_order: 'diagonal' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ status: 'error', message: m.gridOrderInvalid });
  });

  it('a Regular user may not change it, and nobody may change another company’s', async () => {
    expect((await post('/set_company_grid_order', farm.regular.token, { company_id: farm.companyId }, { grid_order: 'column' })).status).toBe(403);
    expect((await post('/set_company_grid_order', farm.admin.token, { company_id: other.companyId }, { grid_order: 'column' })).status).toBe(403);
    const unchanged = await get('/get_company_grid_order', other.admin.token, { company_id: other.companyId });
    expect(unchanged.body).toMatchObject({ grid_order: 'row' });
  });
});

describe('grid opacity', () => {
  it('is set from the query, with no body', async () => {
    const set = await post('/set_grid_opacity', farm.admin.token, { company_id: farm.companyId, grid_opacity: 0.45 });
    expect(set.body).toMatchObject({ status: 'success', grid_opacity: 0.45 });
    expect((await get('/get_grid_opacity', farm.regular.token, { company_id: farm.companyId })).body).toMatchObject({ grid_opacity: 0.45 });
  });

  it('rejects a missing or out-of-range value', async () => {
    expect((await post('/set_grid_opacity', farm.admin.token, { company_id: farm.companyId })).body).toEqual({ status: 'error', message: m.gridOpacityRequired });
    expect((await post('/set_grid_opacity', farm.admin.token, { company_id: farm.companyId, grid_opacity: 1.5 })).body).toEqual({ status: 'error', message: m.gridOpacityInvalid });
    expect((await post('/set_grid_opacity', farm.admin.token, { grid_opacity: 0.5 })).body).toEqual({ status: 'error', message: m.companyIdRequired });
  });

  it('is refused to a Regular user and for another company', async () => {
    expect((await post('/set_grid_opacity', farm.regular.token, { company_id: farm.companyId, grid_opacity: 0.2 })).status).toBe(403);
    expect((await post('/set_grid_opacity', farm.admin.token, { company_id: other.companyId, grid_opacity: 0.2 })).status).toBe(403);
  });
});

describe('AI model', () => {
  it('is set and read back', async () => {
    expect((await post('/set_company_ai_model', farm.admin.token, { company_id: farm.companyId, ai_model: 'stickyTrapCounter' })).body).toMatchObject({ status: 'success', ai_model: 'stickyTrapCounter' });
    expect((await get('/get_company_ai_model', farm.regular.token, { company_id: farm.companyId })).body).toMatchObject({ ai_model: 'stickyTrapCounter' });
  });

  it('rejects a missing or malformed name, a Regular user and another company', async () => {
    expect((await post('/set_company_ai_model', farm.admin.token, { company_id: farm.companyId })).body).toEqual({ status: 'error', message: m.aiModelRequired });
    expect((await post('/set_company_ai_model', farm.admin.token, { company_id: farm.companyId, ai_model: 'no spaces/here' })).body).toEqual({ status: 'error', message: m.aiModelInvalid });
    expect((await post('/set_company_ai_model', farm.regular.token, { company_id: farm.companyId, ai_model: 'x' })).status).toBe(403);
    expect((await post('/set_company_ai_model', farm.admin.token, { company_id: other.companyId, ai_model: 'x' })).status).toBe(403);
  });
});

describe('auto refresh', () => {
  it('takes 0 or 1 and is read back as auto_refresh_mode', async () => {
    expect((await post('/set_company_auto_refresh', farm.admin.token, { company_id: farm.companyId, auto_refresh: 1 })).body).toMatchObject({ status: 'success', auto_refresh: 1 });
    expect((await get('/get_company_auto_refresh_mode', farm.regular.token, { company_id: farm.companyId })).body).toMatchObject({ auto_refresh_mode: 1 });
  });

  it('needs both company and flag, and only 0 or 1', async () => {
    expect((await post('/set_company_auto_refresh', farm.admin.token, { company_id: farm.companyId })).body).toEqual({ status: 'error', message: m.autoRefreshRequired });
    expect((await post('/set_company_auto_refresh', farm.admin.token, { auto_refresh: 1 })).body).toEqual({ status: 'error', message: m.autoRefreshRequired });
    expect((await post('/set_company_auto_refresh', farm.admin.token, { company_id: farm.companyId, auto_refresh: 2 })).body).toEqual({ status: 'error', message: m.autoRefreshInvalid });
    expect((await post('/set_company_auto_refresh', farm.admin.token, { company_id: other.companyId, auto_refresh: 1 })).status).toBe(403);
    expect((await post('/set_company_auto_refresh', farm.regular.token, { company_id: farm.companyId, auto_refresh: 0 })).status).toBe(403);
  });
});

describe('sticky-trap render', () => {
  it('changes to a different number', async () => {
    const response = await post('/update_stickytrap_render', farm.admin.token, { company_id: farm.companyId, value: 3 });
    expect(response.body).toMatchObject({ status: 'success', stickytrap_render: 3 });
    expect((await get('/get_stickytrap_render', farm.regular.token, { company_id: farm.companyId })).body).toMatchObject({ stickytrap_render: 3 });
  });

  it.each([['an unchanged value', '3'], ['a non-numeric value', 'abc'], ['no value', '']])('answers 400 with the spec message for %s', async (_case, value) => {
    const response = await post('/update_stickytrap_render', farm.admin.token, { company_id: farm.companyId, value });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: 'Please update values that are different from your current settings.' });
  });

  it('is refused for another company and to a Regular user', async () => {
    expect((await post('/update_stickytrap_render', farm.admin.token, { company_id: other.companyId, value: 9 })).status).toBe(403);
    expect((await post('/update_stickytrap_render', farm.regular.token, { company_id: farm.companyId, value: 9 })).status).toBe(403);
  });
});

describe('language', () => {
  it('is set from the query and read back', async () => {
    expect((await post('/set_company_language', farm.admin.token, { company_id: farm.companyId, language: 'pt-BR' })).body).toMatchObject({ status: 'success', language: 'pt-BR' });
    expect((await get('/get_company_language', farm.regular.token, { company_id: farm.companyId })).body).toMatchObject({ language: 'pt-BR' });
  });

  it('answers the spec messages', async () => {
    expect((await post('/set_company_language', farm.admin.token, { language: 'en' })).body).toEqual({ status: 'error', message: 'company_id is required.' });
    expect((await post('/set_company_language', farm.admin.token, { company_id: farm.companyId })).body).toEqual({ status: 'error', message: 'language is required.' });
    expect((await post('/set_company_language', farm.admin.token, { company_id: farm.companyId, language: 'English!' })).body).toEqual({ status: 'error', message: m.languageInvalid });
    expect((await post('/set_company_language', farm.admin.token, { company_id: other.companyId, language: 'en' })).status).toBe(403);
  });
});

describe('thresholds', () => {
  it('lists each user’s threshold', async () => {
    await server.request('POST', '/threshold', { token: farm.regular.token, json: { user_id: farm.regular.id, threshold: 7 } });
    const response = await get('/get_company_thresholds', farm.admin.token, { company_id: farm.companyId });
    expect(response.status).toBe(200);
    const thresholds = (response.body as { thresholds: Array<{ user_id: number; threshold: number | null }> }).thresholds;
    expect(thresholds).toContainEqual(expect.objectContaining({ user_id: farm.regular.id, threshold: 7 }));
    expect(thresholds).toContainEqual(expect.objectContaining({ user_id: farm.admin.id, threshold: null }));
  });
});

describe('every change is audited and reaches the synced company document', () => {
  it('records who changed what', async () => {
    await post('/set_company_language', farm.admin.token, { company_id: farm.companyId, language: 'nl' });
    const events = await get('/get_audit_events', farm.admin.token, { company_id: farm.companyId });
    expect((events.body as { events: Array<{ EventTitle: string; UserID: number }> }).events[0]).toMatchObject({ EventTitle: 'Set language to nl', UserID: farm.admin.id });
    // On PostgreSQL a pull holds rows back while an older transaction anywhere on the server is still
    // open (another test file's), so the change arrives on a later pull, never skipped.
    const pulledLanguage = async () => {
      const pulled = await get('/sync/pull', farm.regular.token, { collection: 'company' });
      return (pulled.body as { documents: Array<{ settings: { language: string } }> }).documents[0]?.settings.language;
    };
    await expect.poll(pulledLanguage, { timeout: 10_000 }).toBe('nl');
  });
});

/**
 * Reads of a company's settings go through each instance's company cache (server/domains/companies/cache.ts):
 * the writer reads its change at once, and another instance on the same database once the change's
 * notification reaches it.
 */
describe('settings read through the company cache', () => {
  it('a change is read at once by the instance that made it', async () => {
    const grid = (value: string) => post('/set_company_grid_order', farm.admin.token, { company_id: farm.companyId }, { grid_order: value });
    for (const order of ['column', 'snake_row', 'row']) {
      // Read first, so the cache holds the value the change replaces.
      await get('/get_company_grid_order', farm.regular.token, { company_id: farm.companyId });
      expect((await grid(order)).status).toBe(200);
      expect((await get('/get_company_grid_order', farm.regular.token, { company_id: farm.companyId })).body).toEqual({ status: 'success', grid_order: order });
    }
  });

  it.skipIf(databaseKind !== 'postgres')('a change made through one instance is read through another on the same database', async () => {
    const database = await openDatabase({ databaseUrl: server.config.databaseUrl, dataDir: server.config.dataDir });
    const second = await buildApp(server.config, database, false);
    try {
      await second.listen({ port: 0, host: '127.0.0.1' });
      const address = second.server.address();
      const viaSecond = requester(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
      const opacity = async () => (await viaSecond('GET', '/get_grid_opacity', { token: other.regular.token, query: { company_id: other.companyId } })).body as { grid_opacity: number };
      // Read first through the second instance, so its cache holds the value the change replaces.
      const before = (await opacity()).grid_opacity;
      const after = before === 0.5 ? 0.25 : 0.5;
      expect((await post('/set_grid_opacity', other.admin.token, { company_id: other.companyId, grid_opacity: after })).status).toBe(200);
      await expect.poll(opacity, { timeout: 5_000, interval: 50 }).toEqual({ status: 'success', grid_opacity: after });
    } finally {
      await second.close();
      await database.close();
    }
  });
});
