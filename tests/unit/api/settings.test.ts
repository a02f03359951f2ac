import { describe, expect, it, vi } from 'vitest';
import { httpMessages } from '../../../common/messages/http';
import { GRID_ORDERS, SETTINGS_DEFAULTS, settingsClientMessages as cm, settingsMessages as m } from '../../../common/messages/settings';
import type { CompanySettings } from '../../../common/schemas/settings';
import {
  companyAiModelOrDefault,
  getCompanyAiModel,
  getCompanyAutoRefreshMode,
  getCompanyGridOrder,
  getCompanyLanguage,
  getCompanyOfflineMode,
  getCompanyThresholds,
  getGridOpacity,
  getStickytrapRender,
  setCompanyAiModel,
  setCompanyAutoRefresh,
  setCompanyGridOrder,
  setCompanyLanguage,
  setGridOpacity,
  updateStickytrapRender,
} from '../../../src/api/settings';
import type { Tablet } from '../../support/client';
import { createTenant } from '../../support/factories';
import { useFleet } from '../../support/fleet';

const fleet = useFleet({ otherTenant: true, defaultUser: 'admin', restoreMocks: true });
const { tablet } = fleet;

const localSettings = async (device: Tablet, companyId: number) => (await device.database.company.findOne(String(companyId)).exec())?.toMutableJSON().settings as CompanySettings | undefined;
const serverSettings = (companyId: number) => fleet.server.database.db.selectFrom('companies').selectAll().where('id', '=', companyId).executeTakeFirstOrThrow();

/**
 * A queued settings change end to end: made offline, its entry and optimistic settings appear; back
 * online it reaches the server, and the pulled document keeps the value.
 */
async function queuedChange(change: (device: Tablet, companyId: number) => Promise<unknown>, expected: Partial<CompanySettings>, path: string) {
  const tenant = await createTenant(fleet.server);
  const device = await tablet(tenant.admin);
  fleet.proxy.setOnline(false);
  await change(device, tenant.companyId);
  expect(await device.outbox.all()).toEqual([expect.objectContaining({ method: 'POST', path, state: 'pending' })]);
  expect(await localSettings(device, tenant.companyId)).toMatchObject(expected);

  fleet.proxy.setOnline(true);
  await device.engine.syncNow();
  await device.engine.settle();
  expect(await device.outbox.count()).toBe(0);
  expect(await localSettings(device, tenant.companyId)).toMatchObject(expected);
  expect(JSON.stringify(await localSettings(device, tenant.companyId))).not.toContain('tmp-');
  return { tenant, device, row: await serverSettings(tenant.companyId) };
}

describe('setCompanyGridOrder', () => {
  it("returns (not throws) {message: 'Required parameter missing: companyID.'} and logs it", async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await setCompanyGridOrder(device.context, { companyId: undefined, gridOrder: 'column' })).toEqual({ message: m.gridOrderCompanyMissing });
    expect(await setCompanyGridOrder(device.context, { companyId: 0, gridOrder: 'column' })).toEqual({ message: m.gridOrderCompanyMissing });
    expect(logged).toHaveBeenCalledWith(m.gridOrderCompanyMissing);
    expect(await device.outbox.count()).toBe(0);
  });

  it("returns {message: 'Required parameter missing: gridOrder.'} for an undefined grid order", async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await setCompanyGridOrder(device.context, { companyId: fleet.farm.companyId })).toEqual({ message: m.gridOrderMissing });
    expect(logged).toHaveBeenCalledWith(m.gridOrderMissing);
  });

  it("returns {message: 'Required parameter missing: axiosPrivate.'} without a client, or with one signed out", async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { client: _client, ...withoutClient } = device.context;
    expect(await setCompanyGridOrder(withoutClient, { companyId: fleet.farm.companyId, gridOrder: 'column' })).toEqual({ message: m.gridOrderClientMissing });
    expect(await setCompanyGridOrder({ ...device.context, client: null }, { companyId: fleet.farm.companyId, gridOrder: 'column' })).toEqual({ message: m.gridOrderClientMissing });
    await device.session.clear();
    expect(await setCompanyGridOrder(device.context, { companyId: fleet.farm.companyId, gridOrder: 'column' })).toEqual({ message: m.gridOrderClientMissing });
    expect(await device.outbox.count()).toBe(0);
  });

  it("returns the server's message for a grid order it would refuse", async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await setCompanyGridOrder(device.context, { companyId: fleet.farm.companyId, gridOrder: 'diagonal' })).toEqual({ message: m.gridOrderInvalid });
  });

  it('returns the thrown error’s message when the change cannot be recorded', async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    device.outbox.close();
    const result = await setCompanyGridOrder(device.context, { companyId: fleet.farm.companyId, gridOrder: 'column' });
    expect(result).toEqual({ message: expect.any(String) });
    expect((result as { message: string }).message).not.toBe('');
    expect(logged).toHaveBeenCalled();
  });

  it('is queued with its optimistic settings and reaches the server; returns what it wrote', async () => {
    const { row } = await queuedChange(
      async (device, companyId) => expect(await setCompanyGridOrder(device.context, { companyId, gridOrder: 'snake_column' })).toEqual({ grid_order: 'snake_column' }),
      { grid_order: 'snake_column' },
      '/set_company_grid_order',
    );
    expect(row.grid_order).toBe('snake_column');
  });

  it('accepts every grid order the server knows', async () => {
    // A company of its own: a tablet that is not started still sends what is recorded.
    const tenant = await createTenant(fleet.server);
    const device = await tablet(tenant.admin, { start: false });
    for (const gridOrder of GRID_ORDERS) expect(await setCompanyGridOrder(device.context, { companyId: tenant.companyId, gridOrder })).toEqual({ grid_order: gridOrder });
  });
});

describe('getCompanyGridOrder', () => {
  it("fails with 'Missing companyID' (logged)", async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(getCompanyGridOrder(device.context, { companyId: undefined })).rejects.toThrow(m.getGridOrderCompanyMissing);
    expect(logged).toHaveBeenCalled();
  });

  it('answers from the server before the first pull and from the local document after', async () => {
    const fresh = await tablet(fleet.farm.regular, { start: false });
    expect(await getCompanyGridOrder(fresh.context, { companyId: fleet.farm.companyId })).toBe(SETTINGS_DEFAULTS.grid_order);
    await fleet.tablets.pop()?.close();
    const pulled = await tablet(fleet.farm.regular);
    fleet.proxy.setOnline(false);
    expect(await getCompanyGridOrder(pulled.context, { companyId: fleet.farm.companyId })).toBe(SETTINGS_DEFAULTS.grid_order);
  });

  it("logs and rethrows the server's message", async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(getCompanyGridOrder(device.context, { companyId: fleet.other.companyId })).rejects.toThrow(httpMessages.otherCompany);
    expect(logged).toHaveBeenCalled();
  });
});

describe('grid opacity', () => {
  it('setting without a company or without an opacity logs and returns nothing', async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await setGridOpacity(device.context, { companyId: undefined, gridOpacity: 0.5 })).toBeUndefined();
    expect(await setGridOpacity(device.context, { companyId: fleet.farm.companyId, gridOpacity: undefined })).toBeUndefined();
    expect(await setGridOpacity(device.context, { companyId: fleet.farm.companyId, gridOpacity: null })).toBeUndefined();
    expect(logged).toHaveBeenCalledTimes(3);
    expect(await device.outbox.count()).toBe(0);
  });

  it('getting without a company logs and returns nothing', async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await getGridOpacity(device.context, { companyId: null })).toBeUndefined();
    expect(logged).toHaveBeenCalledTimes(1);
  });

  it("a value outside 0–1 fails with the server's message", async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    await expect(setGridOpacity(device.context, { companyId: fleet.farm.companyId, gridOpacity: 1.5 })).rejects.toThrow(m.gridOpacityInvalid);
  });

  it('a change (0 included) is queued, optimistic, and reaches the server; the getter reads it', async () => {
    const { row, device, tenant } = await queuedChange(
      async (device, companyId) => expect(await setGridOpacity(device.context, { companyId, gridOpacity: 0 })).toEqual({ grid_opacity: 0 }),
      { grid_opacity: 0 },
      '/set_grid_opacity',
    );
    expect(row.grid_opacity).toBe(0);
    expect(await getGridOpacity(device.context, { companyId: tenant.companyId })).toBe(0);
  });

  it('getGridOpacity answers from the server before the first pull', async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    expect(await getGridOpacity(device.context, { companyId: fleet.farm.companyId })).toBe(SETTINGS_DEFAULTS.grid_opacity);
  });
});

describe('getCompanyOfflineMode', () => {
  it("fails with 'Missing required parameter: companyID'", async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    await expect(getCompanyOfflineMode(device.context, { companyId: undefined })).rejects.toHaveProperty('message', m.offlineModeCompanyMissing);
  });

  it("rethrows as 'getCompanyOfflineMode Error: ' with the server's message, or the network's", async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    await expect(getCompanyOfflineMode(device.context, { companyId: fleet.other.companyId })).rejects.toHaveProperty('message', `${m.offlineModeErrorPrefix}${httpMessages.otherCompany}`);
    fleet.proxy.setOnline(false);
    await expect(getCompanyOfflineMode(device.context, { companyId: fleet.farm.companyId })).rejects.toHaveProperty('message', `${m.offlineModeErrorPrefix}${cm.noResponse}`);
  });

  it('answers 1 (on) from the server, and from the local document offline', async () => {
    const fresh = await tablet(fleet.farm.regular, { start: false });
    expect(await getCompanyOfflineMode(fresh.context, { companyId: fleet.farm.companyId })).toBe(1);
    await fleet.tablets.pop()?.close();
    const pulled = await tablet(fleet.farm.regular);
    fleet.proxy.setOnline(false);
    expect(await getCompanyOfflineMode(pulled.context, { companyId: fleet.farm.companyId })).toBe(1);
  });
});

describe('AI model', () => {
  it('the fetch helper logs and rethrows; the screens’ model keeps the default when the fetch fails', async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(getCompanyAiModel(device.context, { companyId: fleet.other.companyId })).rejects.toThrow(httpMessages.otherCompany);
    expect(logged).toHaveBeenCalledTimes(1);
    fleet.proxy.setOnline(false);
    expect(await companyAiModelOrDefault(device.context, { companyId: fleet.farm.companyId })).toBe('plantDiseaseRecognition');
    expect(logged).toHaveBeenCalledTimes(2);
  });

  it('a change is queued, optimistic, reaches the server, and is the screens’ model', async () => {
    const { row, device, tenant } = await queuedChange(
      async (device, companyId) => expect(await setCompanyAiModel(device.context, { companyId, aiModel: 'stickyTrapCounter' })).toEqual({ ai_model: 'stickyTrapCounter' }),
      { ai_model: 'stickyTrapCounter' },
      '/set_company_ai_model',
    );
    expect(row.ai_model).toBe('stickyTrapCounter');
    expect(await companyAiModelOrDefault(device.context, { companyId: tenant.companyId })).toBe('stickyTrapCounter');
  });

  it("checks the model name with the server's messages", async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    await expect(setCompanyAiModel(device.context, { companyId: fleet.farm.companyId, aiModel: ' ' })).rejects.toThrow(m.aiModelRequired);
    await expect(setCompanyAiModel(device.context, { companyId: fleet.farm.companyId, aiModel: 'no spaces' })).rejects.toThrow(m.aiModelInvalid);
  });

  it('getCompanyAiModel answers the default from the server before the first pull', async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    expect(await getCompanyAiModel(device.context, { companyId: fleet.farm.companyId })).toBe(SETTINGS_DEFAULTS.ai_model);
  });
});

describe('auto refresh', () => {
  it("needs both company and flag: 'company_id and auto_refresh are required.'", async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    await expect(setCompanyAutoRefresh(device.context, { companyId: fleet.farm.companyId, autoRefresh: undefined })).rejects.toThrow(m.autoRefreshRequired);
    await expect(setCompanyAutoRefresh(device.context, { companyId: undefined, autoRefresh: 1 })).rejects.toThrow(m.autoRefreshRequired);
    await expect(setCompanyAutoRefresh(device.context, { companyId: fleet.farm.companyId, autoRefresh: 2 as 1 })).rejects.toThrow(m.autoRefreshInvalid);
  });

  it('a change is queued, optimistic, reaches the server, and getCompanyAutoRefreshMode reads it', async () => {
    const { row, device, tenant } = await queuedChange(
      async (device, companyId) => expect(await setCompanyAutoRefresh(device.context, { companyId, autoRefresh: true })).toEqual({ auto_refresh: 1 }),
      { auto_refresh: 1 },
      '/set_company_auto_refresh',
    );
    expect(row.auto_refresh).toBe(1);
    expect(await getCompanyAutoRefreshMode(device.context, { companyId: tenant.companyId })).toBe(1);
  });

  it('getCompanyAutoRefreshMode answers auto_refresh_mode from the server before the first pull', async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    expect(await getCompanyAutoRefreshMode(device.context, { companyId: fleet.farm.companyId })).toBe(0);
  });
});

describe('sticky-trap render value', () => {
  it("must be numeric: 'Please update values that are different from your current settings.'", async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    await expect(updateStickytrapRender(device.context, { companyId: fleet.farm.companyId, value: 'two' })).rejects.toThrow(m.stickyTrapUnchanged);
    await expect(updateStickytrapRender(device.context, { companyId: fleet.farm.companyId, value: '' })).rejects.toThrow(m.stickyTrapUnchanged);
  });

  it('must differ from the current value (the server’s before the first pull, the local one after)', async () => {
    const fresh = await tablet(fleet.farm.admin, { start: false });
    await expect(updateStickytrapRender(fresh.context, { companyId: fleet.farm.companyId, value: 1 })).rejects.toThrow(m.stickyTrapUnchanged);
    await fleet.tablets.pop()?.close();
    const pulled = await tablet(fleet.farm.admin);
    fleet.proxy.setOnline(false);
    await expect(updateStickytrapRender(pulled.context, { companyId: fleet.farm.companyId, value: '1' })).rejects.toThrow(m.stickyTrapUnchanged);
    expect(await pulled.outbox.count()).toBe(0);
  });

  it('a different value is queued, optimistic, reaches the server; the same value again is refused at once', async () => {
    const { row, device, tenant } = await queuedChange(
      async (device, companyId) => {
        expect(await updateStickytrapRender(device.context, { companyId, value: 3 })).toEqual({ stickytrap_render: 3 });
        await expect(updateStickytrapRender(device.context, { companyId, value: 3 })).rejects.toThrow(m.stickyTrapUnchanged);
      },
      { stickytrap_render: 3 },
      '/update_stickytrap_render',
    );
    expect(row.stickytrap_render).toBe(3);
    expect(await getStickytrapRender(device.context)).toBe(3);
    expect(await getStickytrapRender(device.context, { companyId: tenant.companyId })).toBe(3);
  });

  it('getStickytrapRender answers from the server before the first pull, for the signed-in company by default', async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    expect(await getStickytrapRender(device.context)).toBe(SETTINGS_DEFAULTS.stickytrap_render);
  });
});

describe('language', () => {
  it("setting needs 'company_id is required.' and 'language is required.'", async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    await expect(setCompanyLanguage(device.context, { companyId: undefined, language: 'de' })).rejects.toThrow(m.languageCompanyRequired);
    await expect(setCompanyLanguage(device.context, { companyId: fleet.farm.companyId, language: ' ' })).rejects.toThrow(m.languageRequired);
    await expect(setCompanyLanguage(device.context, { companyId: fleet.farm.companyId, language: 'Deutsch!' })).rejects.toThrow(m.languageInvalid);
  });

  it("fails with 'Failed to set language.' when the change cannot be recorded", async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    device.outbox.close();
    await expect(setCompanyLanguage(device.context, { companyId: fleet.farm.companyId, language: 'de' })).rejects.toHaveProperty('message', m.languageSetFailed);
  });

  it('a change is queued, optimistic, reaches the server, and getCompanyLanguage reads it', async () => {
    const { row, device, tenant } = await queuedChange(
      async (device, companyId) => expect(await setCompanyLanguage(device.context, { companyId, language: 'pt-BR' })).toEqual({ language: 'pt-BR' }),
      { language: 'pt-BR' },
      '/set_company_language',
    );
    expect(row.language).toBe('pt-BR');
    expect(await getCompanyLanguage(device.context, { companyId: tenant.companyId })).toBe('pt-BR');
  });

  it("getting needs 'company_id is required.'; the server's message, else 'Failed to get language.'", async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    await expect(getCompanyLanguage(device.context, { companyId: undefined })).rejects.toThrow(m.languageCompanyRequired);
    expect(await getCompanyLanguage(device.context, { companyId: fleet.farm.companyId })).toBe(SETTINGS_DEFAULTS.language);
    await expect(getCompanyLanguage(device.context, { companyId: fleet.other.companyId })).rejects.toThrow(httpMessages.otherCompany);
    fleet.proxy.setOnline(false);
    await expect(getCompanyLanguage(device.context, { companyId: fleet.farm.companyId })).rejects.toThrow(m.languageGetFailed);
  });
});

describe('getCompanyThresholds', () => {
  it('lists each user’s threshold, from the server before the first pull and the local document after', async () => {
    await fleet.server.request('POST', '/threshold', { token: fleet.farm.regular.token, json: { user_id: fleet.farm.regular.id, threshold: 4 } });
    const fresh = await tablet(fleet.farm.regular, { start: false });
    const fromServer = await getCompanyThresholds(fresh.context, { companyId: fleet.farm.companyId });
    expect(fromServer).toEqual(
      expect.arrayContaining([
        { user_id: fleet.farm.regular.id, first_name: expect.any(String), last_name: expect.any(String), threshold: 4 },
        { user_id: fleet.farm.admin.id, first_name: expect.any(String), last_name: expect.any(String), threshold: null },
      ]),
    );
    await fleet.tablets.pop()?.close();
    const pulled = await tablet(fleet.farm.regular);
    fleet.proxy.setOnline(false);
    expect(await getCompanyThresholds(pulled.context, { companyId: fleet.farm.companyId })).toEqual(fromServer);
  });

  it("needs a company: 'company_id is required.'", async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    await expect(getCompanyThresholds(device.context, { companyId: 0 })).rejects.toThrow(m.companyIdRequired);
  });
});
