/**
 * Company settings (spec part 1 §2 `settings`, §3, §5; part 2 §4): AI model, grid order, grid opacity,
 * auto refresh, sticky-trap render value and language, read from the company's local document (so
 * they show offline, with changes still waiting to sync). Admins change them: each change is a queued
 * write (src/api/settings.ts) the screen shows at once. Regular users see the same values read-only.
 *
 * Where the spec is silent:
 * - Grid order, auto refresh and language save as soon as they are picked; the opacity slider saves
 *   half a second after it stops moving (one change per drag, not one per step); AI model and
 *   sticky-trap render save with their button, since they are typed.
 * - The offline mode flag has no setter in the spec: it is shown, read-only, to everyone.
 * - Languages offered: a short list of common codes, plus whatever code the company already has.
 */
import { useTranslation } from 'react-i18next';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { GRID_ORDERS, type GridOrder, SETTINGS_DEFAULTS, settingsMessages as m } from '../../../common/messages/settings';
import type { CompanySettings } from '../../../common/schemas/settings';
import {
  setCompanyAutoRefresh,
  setCompanyGridOrder,
  setCompanyLanguage,
  setGridOpacity,
  updateStickytrapRender,
} from '../../api/settings';
import type { ApiContext } from '../../api/context';
import { useAction, type SignedInUser } from '../../app/hooks';
import { useCompany } from '../company/useCompany';
import { SignedIn } from '../session/SignedIn';
import { AiModelSetting } from './AiModelSetting';
import { LANGUAGE_NAMES, LANGUAGES, supportedLanguage } from '../../../common/i18n/languages';
import { useTabletLanguage } from '../../i18n/language';
import { FormError } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { useUiState } from '../ui-state/ui-state';
import { GridOrderPicture } from './GridOrderPicture';
import { KioskPinSetting } from './KioskPinSetting';
import './settings.css';
import { settingsTexts } from './texts';

/** A language code as its own name says it ("es" → "Español"); a code the interface does not speak shows as stored. */
const languageName = (code: string) => {
  const language = supportedLanguage(code);
  return language === code ? LANGUAGE_NAMES[language] : code;
};

/** The settings with the defaults filled in (README "Company settings") for what the document lacks. */
function withDefaults(settings: Partial<CompanySettings> | null | undefined): CompanySettings {
  const pick = <K extends keyof CompanySettings>(key: K): CompanySettings[K] => (settings?.[key] ?? SETTINGS_DEFAULTS[key]) as CompanySettings[K];
  const order = pick('grid_order');
  return {
    grid_order: (GRID_ORDERS as readonly string[]).includes(order) ? order : SETTINGS_DEFAULTS.grid_order,
    grid_opacity: Number(pick('grid_opacity')),
    offline_mode: Number(pick('offline_mode')),
    ai_model: String(pick('ai_model')),
    auto_refresh: Number(pick('auto_refresh')),
    stickytrap_render: Number(pick('stickytrap_render')),
    language: String(pick('language')),
  };
}

/** setCompanyGridOrder answers its problems as `{message}` (spec part 1 §5); the screen shows them as errors. */
async function saveGridOrder(context: ApiContext, input: { companyId: number; gridOrder: GridOrder }) {
  const result = await setCompanyGridOrder(context, input);
  if ('message' in result) throw new Error(result.message);
  return result;
}

export function SettingsScreen() {
  const { t } = useTranslation(settingsTexts);
  return <SignedIn title={t('title')}>{(user) => <Settings user={user} />}</SignedIn>;
}

function Settings({ user }: { user: SignedInUser }) {
  const { t } = useTranslation(settingsTexts);
  const company = useCompany(user.companyId);
  const stored = company.document?.settings;
  const settings = withDefaults(stored);
  const editable = user.isAdmin;
  const mirror = useUiState((state) => state.mirrorCompanySettings);

  // The UI state keeps the tablet's last known language, auto refresh and sticky-trap value (spec part 2 §4).
  useEffect(() => {
    if (stored) mirror(stored);
  }, [stored, mirror]);

  return (
    <Screen
      title={t('title')}
      loading={company.loading}
      empty={company.document ? null : t('arrivesWithSync')}
      actions={
        <>
          <Link className="button" to="/dashboard/profile">
            {t('yourProfile')}
          </Link>
          <Link className="button" to="/dashboard/company">
            {t('companyAndUsers')}
          </Link>
        </>
      }
    >
      {company.document && (
        <div className="settings">
          {!editable && (
            <p className="banner" role="note">
              {t('adminOnly')}
            </p>
          )}
          <GridOrderSetting value={settings.grid_order} companyId={user.companyId} editable={editable} />
          <OpacitySetting value={settings.grid_opacity} order={settings.grid_order} companyId={user.companyId} editable={editable} />
          <AiModelSetting value={settings.ai_model} companyId={user.companyId} editable={editable} />
          <AutoRefreshSetting value={settings.auto_refresh} companyId={user.companyId} editable={editable} />
          <StickyTrapSetting value={settings.stickytrap_render} companyId={user.companyId} editable={editable} />
          <LanguageSetting value={settings.language} companyId={user.companyId} editable={editable} />
          <KioskPinSetting companyId={user.companyId} editable={editable} />
          <section className="card setting" aria-labelledby="setting-offline">
            <h2 id="setting-offline">{t('offline.heading')}</h2>
            <p className="muted">{t('offline.help')}</p>
            <p className="setting-value">{settings.offline_mode ? t('on') : t('off')}</p>
          </section>
        </div>
      )}
    </Screen>
  );
}

interface SettingProps<T> {
  value: T;
  companyId: number;
  editable: boolean;
}

function GridOrderSetting({ value, companyId, editable }: SettingProps<GridOrder>) {
  const { t } = useTranslation(settingsTexts);
  const save = useAction(saveGridOrder, m.updated);
  return (
    <section className="card setting" aria-labelledby="setting-grid-order">
      <h2 id="setting-grid-order">{t('gridOrder.heading')}</h2>
      <p className="muted">{t('gridOrder.help')}</p>
      {editable ? (
        <div className="order-options" role="radiogroup" aria-labelledby="setting-grid-order">
          {GRID_ORDERS.map((order) => (
            <button
              key={order}
              type="button"
              role="radio"
              aria-checked={order === value}
              className={order === value ? 'order-option selected' : 'order-option'}
              disabled={save.busy}
              onClick={() => order !== value && void save.run({ companyId, gridOrder: order })}
            >
              <GridOrderPicture order={order} />
              <span className="order-title">{t(`gridOrder.orders.${order}.title`)}</span>
              <span className="order-help">{t(`gridOrder.orders.${order}.help`)}</span>
            </button>
          ))}
        </div>
      ) : (
        <div className="order-readonly">
          <GridOrderPicture order={value} />
          <p className="setting-value" data-testid="grid-order-value">
            {t(`gridOrder.orders.${value}.title`)}
          </p>
        </div>
      )}
      <FormError error={save.error} />
    </section>
  );
}

function OpacityPreview({ opacity, order }: { opacity: number; order: GridOrder }) {
  return (
    <span className="opacity-preview" aria-hidden="true">
      <span className="opacity-grid" style={{ opacity }}>
        <GridOrderPicture order={order} />
      </span>
    </span>
  );
}

function OpacitySetting({ value, order, companyId, editable }: SettingProps<number> & { order: GridOrder }) {
  const { t } = useTranslation(settingsTexts);
  const save = useAction(setGridOpacity, m.updated);
  const run = useRef(save.run);
  run.current = save.run;
  // The slider's position while it moves; null follows the company's value.
  const [draft, setDraft] = useState<number | null>(null);
  const pending = useRef<number | null>(null);
  const shown = draft ?? value;

  useEffect(() => {
    if (draft === null) return undefined;
    pending.current = draft === value ? null : draft;
    if (pending.current === null) return undefined;
    const timer = setTimeout(() => {
      const saving = pending.current;
      pending.current = null;
      if (saving !== null) void run.current({ companyId, gridOpacity: saving }).then(() => setDraft((current) => (current === saving ? null : current)));
    }, 500);
    return () => clearTimeout(timer);
  }, [draft, value, companyId]);
  // Leaving the screen within the half second still saves the last position.
  useEffect(
    () => () => {
      if (pending.current !== null) void run.current({ companyId, gridOpacity: pending.current });
    },
    [companyId],
  );

  const percent = t('opacity.percent', { value: Math.round(shown * 100) });
  return (
    <section className="card setting" aria-labelledby="setting-opacity">
      <h2 id="setting-opacity">{t('opacity.heading')}</h2>
      <p className="muted">{t('opacity.help')}</p>
      <div className="opacity-row">
        <OpacityPreview opacity={shown} order={order} />
        {editable ? (
          <label className="opacity-slider">
            <span className="setting-value">{percent}</span>
            <input
              type="range"
              min={0}
              max={1}
              step={0.05}
              value={shown}
              aria-label={t('opacity.heading')}
              aria-valuetext={percent}
              onChange={(event) => setDraft(Number(event.target.value))}
            />
          </label>
        ) : (
          <p className="setting-value" data-testid="grid-opacity-value">
            {percent}
          </p>
        )}
      </div>
      <FormError error={save.error} />
    </section>
  );
}

function AutoRefreshSetting({ value, companyId, editable }: SettingProps<number>) {
  const { t } = useTranslation(settingsTexts);
  const save = useAction(setCompanyAutoRefresh, m.updated);
  const on = value === 1;
  return (
    <section className="card setting" aria-labelledby="setting-auto-refresh">
      <h2 id="setting-auto-refresh">{t('autoRefresh.heading')}</h2>
      <p className="muted">{t('autoRefresh.help')}</p>
      {editable ? (
        // Named by its heading, its state told by aria-checked. "On" / "Off" shows that state beside the switch, not
        // inside it: a button's visible words must be its name (voice control), and the state is not the name.
        <div className="switch-row">
          <button type="button" role="switch" aria-checked={on} aria-labelledby="setting-auto-refresh" className={on ? 'switch on' : 'switch'} disabled={save.busy} onClick={() => void save.run({ companyId, autoRefresh: on ? 0 : 1 })}>
            <span className="switch-knob" aria-hidden="true" />
          </button>
          <span className="switch-state" aria-hidden="true">
            {on ? t('on') : t('off')}
          </span>
        </div>
      ) : (
        <p className="setting-value">{on ? t('on') : t('off')}</p>
      )}
      <FormError error={save.error} />
    </section>
  );
}

function StickyTrapSetting({ value, companyId, editable }: SettingProps<number>) {
  const { t } = useTranslation(settingsTexts);
  const save = useAction(updateStickytrapRender, m.updated);
  const [draft, setDraft] = useState(String(value));
  useEffect(() => setDraft(String(value)), [value]);
  function submit(event: FormEvent) {
    event.preventDefault();
    void save.run({ companyId, value: draft });
  }
  return (
    <section className="card setting" aria-labelledby="setting-sticky-trap">
      <h2 id="setting-sticky-trap">{t('stickyTrap.heading')}</h2>
      <p className="muted">{t('stickyTrap.help')}</p>
      {editable ? (
        <form className="setting-form" onSubmit={submit} noValidate>
          <input aria-label={t('stickyTrap.label')} type="number" inputMode="decimal" step="any" value={draft} onChange={(event) => setDraft(event.target.value)} />
          <button className="button primary" type="submit" disabled={save.busy}>
            {t('stickyTrap.save')}
          </button>
        </form>
      ) : (
        <p className="setting-value">{value}</p>
      )}
      <FormError error={save.error} />
    </section>
  );
}

/**
 * The company's language (Admins set it, for everyone) and this tablet's own choice (anyone on the
 * tablet; kept on it, src/i18n/choice.ts), which wins over the company's while it is set.
 */
function LanguageSetting({ value, companyId, editable }: SettingProps<string>) {
  const { t } = useTranslation(settingsTexts);
  const save = useAction(setCompanyLanguage, m.updated);
  const [tabletChoice, setTabletLanguage] = useTabletLanguage();
  const codes: string[] = (LANGUAGES as readonly string[]).includes(value) ? [...LANGUAGES] : [...LANGUAGES, value];
  return (
    <section className="card setting" aria-labelledby="setting-language">
      <h2 id="setting-language">{t('language.heading')}</h2>
      <p className="muted">{t('language.company')}</p>
      {editable ? (
        <select className="setting-select" aria-label={t('language.companyLabel')} value={value} disabled={save.busy} onChange={(event) => void save.run({ companyId, language: event.target.value })}>
          {codes.map((code) => (
            <option key={code} value={code}>
              {languageName(code)}
            </option>
          ))}
        </select>
      ) : (
        <p className="setting-value">{languageName(value)}</p>
      )}
      <FormError error={save.error} />
      <p className="muted">{t('language.tablet')}</p>
      <select
        className="setting-select"
        aria-label={t('language.tabletLabel')}
        value={tabletChoice ?? ''}
        onChange={(event) => setTabletLanguage(supportedLanguage(event.target.value))}
      >
        <option value="">{t('language.followCompany', { language: languageName(value) })}</option>
        {LANGUAGES.map((code) => (
          <option key={code} value={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </section>
  );
}
