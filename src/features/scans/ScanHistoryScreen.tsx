/**
 * scanHistory (issue 17): the company's scans by type, newest first, with when, who, where, the model
 * and what each found. The scans of the last weeks are on the tablet (offline too); older ones are read
 * from the server a page at a time when online.
 */
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SCAN_TYPES } from '../../../common/messages/scans';
import type { ScanSessionRecord, ScanType } from '../../../common/schemas/scans';
import { type CameraCapture, getCameraCaptures } from '../../api/cameras';
import { getScans, type ScanDocument, SCAN_SELECTOR } from '../../api/scans';
import { analysisLines } from '../cameras/model';
import { type SignedInUser, useAction, useApiContext, useLocalQuery } from '../../app/hooks';
import { i18next } from '../../i18n/i18n';
import { messageOf } from '../../i18n/messages';
import { useCompanyDoc } from '../plant-moves/places';
import { type CompanyDoc, userName, when } from '../rooms/model';
import { SignedIn } from '../session/SignedIn';
import { ChoiceOptions, FormError, SelectField } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { scansTexts, scanTypeName } from './texts';
import './scans.css';

const ALL = 'all';
type TypeFilter = ScanType | typeof ALL;

export function ScanHistoryScreen() {
  const { t } = useTranslation(scansTexts);
  return <SignedIn title={t('history.title')}>{(user) => <ScanHistory user={user} />}</SignedIn>;
}

function ScanHistory({ user }: { user: SignedInUser }) {
  const { t } = useTranslation(scansTexts);
  const [type, setType] = useState<TypeFilter>(ALL);
  const local = useLocalQuery<ScanDocument>('operations', SCAN_SELECTOR, 'scans');
  const company = useCompanyDoc(user.companyId);
  const [older, setOlder] = useState<{ scans: ScanSessionRecord[]; page: number; total: number } | null>(null);
  const more = useAction(async (context, page: number) => {
    const answer = await getScans(context, { companyId: user.companyId, ...(type === ALL ? {} : { scanType: type }), page, perPage: 50 });
    setOlder((before) => ({ scans: [...(page > 1 ? (before?.scans ?? []) : []), ...answer.scans], page: answer.page, total: answer.total }));
  });
  const scans = useMemo(() => {
    const held = new Set(local.documents.map((scan) => scan.client_id));
    const all: ScanSessionRecord[] = [...local.documents, ...(older?.scans.filter((scan) => !held.has(scan.client_id)) ?? [])];
    return all.filter((scan) => type === ALL || scan.scan_type === type).sort((a, b) => b.scanned_at.localeCompare(a.scanned_at));
  }, [local.documents, older, type]);

  if (type === 'camera') return <CameraCaptures user={user} type={type} onType={setType} />;
  return (
    <Screen
      title={t('history.title')}
      loading={local.loading}
      actions={
        <Link to="/dashboard/scanNow" className="button primary">
          {t('history.scanNow')}
        </Link>
      }
    >
      <TypeChoice
        type={type}
        onType={(chosen) => {
          setType(chosen);
          setOlder(null);
        }}
      />
      {scans.length === 0 ? <p className="empty">{t('history.empty')}</p> : <ScanList scans={scans} company={company} />}
      <FormError error={more.error} />
      {(older === null || older.scans.length < older.total) && (
        <button type="button" className="button" disabled={more.busy} onClick={() => void more.run((older?.page ?? 0) + 1)}>
          {more.busy ? t('history.loading') : older === null ? t('history.showOlder') : t('history.showMore')}
        </button>
      )}
    </Screen>
  );
}

/** What a scan found, in a line (at render: the reader's language). */
export function summaryText(scan: Pick<ScanSessionRecord, 'summary' | 'scan_type'>): string {
  const t = i18next.getFixedT(null, scansTexts);
  const { summary } = scan;
  const boxes = t('summary.boxes', { count: summary.boxes });
  if (summary.insects) {
    const { thrips, whitefly_aphid: whitefly, gnat_fly: gnat } = summary.insects;
    return `${boxes} · ${t('summary.insects', { total: thrips + whitefly + gnat, thrips, whitefly, gnat })}`;
  }
  return `${boxes} · ${t('summary.findings', { count: summary.findings })} · ${t('summary.problems', { count: summary.confirmed_problems })}`;
}

function ScanList({ scans, company }: { scans: ScanSessionRecord[]; company: CompanyDoc | null }) {
  const { t } = useTranslation(scansTexts);
  return (
    <ul className="scan-list">
      {scans.map((scan) => (
        <li key={scan.client_id} className="card scan-card">
          <Link to="/dashboard/scanHistory/$scanType/$scanHistoryID" params={{ scanType: scan.scan_type, scanHistoryID: scan.client_id }} className="scan-card-link">
            <strong>{scanTypeName(scan.scan_type)}</strong> · {scan.room_name ?? t('history.room')}
            {scan.grid_name ? ` · ${scan.grid_name}` : ''}
          </Link>
          <p>
            {when(scan.scanned_at)} · {scan.user_name ?? userName(company, scan.user_id) ?? t('history.someone')} · {scan.model_name ?? scan.model_key ?? t('history.noModel')}
            {scan.model_version ? ` ${scan.model_version}` : ''}
          </p>
          <p className="muted">{summaryText(scan)}</p>
        </li>
      ))}
    </ul>
  );
}

function TypeChoice({ type, onType }: { type: TypeFilter; onType: (type: TypeFilter) => void }) {
  const { t } = useTranslation(scansTexts);
  const names: Record<TypeFilter, string> = { all: t('history.allScans'), disease: scanTypeName('disease'), sticky_trap: scanTypeName('sticky_trap'), camera: scanTypeName('camera') };
  return (
    <SelectField label={t('history.type')} className="filters">
      {(id) => (
        <select id={id} className="control" value={type} onChange={(event) => onType(event.target.value as TypeFilter)}>
          <ChoiceOptions choices={[ALL, ...SCAN_TYPES]} labels={names} />
        </select>
      )}
    </SelectField>
  );
}

/** The automated cameras' captures with what their analysis found, newest first (online: the images are the server's). */
function CameraCaptures({ user, type, onType }: { user: SignedInUser; type: TypeFilter; onType: (type: TypeFilter) => void }) {
  const { t } = useTranslation(scansTexts);
  const context = useApiContext();
  const [page, setPage] = useState(1);
  const [captures, setCaptures] = useState<{ list: CameraCapture[]; total: number } | null>(null);
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  useEffect(() => {
    if (!context) return undefined;
    let alive = true;
    setState({ busy: true, error: null });
    getCameraCaptures(context, { companyId: user.companyId, page, perPage: 50 }).then(
      (answer) => {
        if (!alive) return;
        setCaptures((before) => ({ list: [...(page > 1 ? (before?.list ?? []) : []), ...answer.captures], total: answer.total }));
        setState({ busy: false, error: null });
      },
      (error: unknown) => alive && setState({ busy: false, error: messageOf(error) }),
    );
    return () => {
      alive = false;
    };
  }, [context, page, user.companyId]);
  return (
    <Screen title={t('history.title')} offline={t('history.camerasOffline')} actions={<Link to="/dashboard/automatedcameras">{t('history.automatedCameras')}</Link>}>
      <TypeChoice type={type} onType={onType} />
      <FormError error={state.error} />
      {captures && captures.list.length === 0 && <p className="empty">{t('history.noCaptures')}</p>}
      <ul className="scan-list">
        {captures?.list.map((capture) => (
          <li key={capture.image_id} className="card scan-card">
            <Link to="/dashboard/automatedcameradetail/$camera_id" params={{ camera_id: String(capture.camera_id) }} className="scan-card-link">
              <strong>{capture.camera_name}</strong> · {capture.room_name ?? t('history.room')}
            </Link>
            <p>{when(capture.captured_at)}</p>
            <p className="muted">{analysisLines(capture.analysis).join(' · ') || t('history.notAnalysed')}</p>
          </li>
        ))}
      </ul>
      {captures && captures.list.length < captures.total && (
        <button type="button" className="button" disabled={state.busy} onClick={() => setPage((at) => at + 1)}>
          {state.busy ? t('history.loading') : t('history.showMore')}
        </button>
      )}
    </Screen>
  );
}
