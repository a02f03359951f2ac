/**
 * scanNow (issue 17): a grower picks a room and grid and what to scan (disease, with the company's AI
 * model, or sticky traps), then walks the grid's boxes in the company's order, photographing each with
 * the tablet's camera. Each photo is analysed on the tablet at once; the grower confirms or corrects
 * the findings (or the trap's marks) and saves. Every step is queued: a scan works with no signal, and
 * its photos and findings reach the server once. Finishing marks the grid and the room scanned.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SCAN_TYPES } from '../../../common/messages/scans';
import type { ScanType } from '../../../common/schemas/scans';
import type { ApiContext } from '../../api/context';
import { byCreation } from '../../api/records';
import { recordScanBox, type ScanDocument, startScan } from '../../api/scans';
import { type SignedInUser, useAction, useLocalDocument, useLocalQuery } from '../../app/hooks';
import { useWakeLock } from '../../app/wake-lock';
import { useCatalogue } from '../plant-problems/useCatalogue';
import { useCompanyDoc, useCompanyRooms } from '../plant-moves/places';
import { type BoxDoc, type GridDoc, gridOrderOf } from '../rooms/model';
import { SignedIn } from '../session/SignedIn';
import { ChoiceOptions, FormError, SelectField } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { warmAnalysis } from './analyse';
import { BoxScan, type BoxResult } from './BoxScan';
import { AI_MODEL_SELECTOR, type AiModelDoc, scanModelFor, walkOf } from './model';
import { scansTexts, scanTypeName } from './texts';
import './scans.css';

/** The two scans a grower walks; camera scans come from automated cameras. */
const WALKED_TYPES = SCAN_TYPES.filter((type) => type !== 'camera');

export interface ScanNowSearch {
  room?: string;
  grid?: string;
  type?: ScanType;
}

export function ScanNowScreen(props: { search: ScanNowSearch }) {
  const { t } = useTranslation(scansTexts);
  return <SignedIn title={t('now.title')}>{(user) => <ScanNow user={user} search={props.search} />}</SignedIn>;
}

function ScanNow({ user, search }: { user: SignedInUser; search: ScanNowSearch }) {
  const { t } = useTranslation(scansTexts);
  const [scanId, setScanId] = useState<string | null>(null);
  const scan = useLocalDocument<ScanDocument>('operations', scanId ?? undefined).document;
  return (
    <Screen title={t('now.title')} actions={<Link to="/dashboard/scanHistory">{t('now.history')}</Link>}>
      {scanId === null ? <ScanSetup user={user} search={search} onStarted={setScanId} /> : scan ? <ScanWalk user={user} scan={scan} /> : <p role="status">{t('now.starting')}</p>}
    </Screen>
  );
}

function ScanSetup({ user, search, onStarted }: { user: SignedInUser; search: ScanNowSearch; onStarted: (scanId: string) => void }) {
  const { t } = useTranslation(scansTexts);
  const { rooms } = useCompanyRooms(user.companyId);
  const company = useCompanyDoc(user.companyId);
  const models = useLocalQuery<AiModelDoc>('operations', AI_MODEL_SELECTOR, 'ai-models').documents;
  const [scanType, setScanType] = useState<ScanType>(search.type === 'sticky_trap' ? 'sticky_trap' : 'disease');
  const [roomId, setRoomId] = useState(search.room ?? '');
  const [gridId, setGridId] = useState(search.grid ?? '');
  const gridList = useLocalQuery<GridDoc>('grids', { roomId: roomId || '\u0000' }, `scan-grids-${roomId}`);
  const grids = useMemo(() => [...gridList.documents].sort(byCreation), [gridList.documents]);
  const aiModel = (company?.settings as { ai_model?: string } | null | undefined)?.ai_model;
  const chosen = scanModelFor(scanType, aiModel, models);
  // The walk opens on the scan just recorded (in the local store at once, also offline).
  const start = useAction(
    async (context: ApiContext, input: Parameters<typeof startScan>[1]) => onStarted((await startScan(context, input)).id),
    undefined,
    { inlineErrors: true },
  );

  useEffect(() => {
    if (!roomId && rooms.length === 1) setRoomId(rooms[0]!.id);
  }, [roomId, rooms]);
  useEffect(() => {
    if (!grids.some((grid) => grid.id === gridId) && !gridList.loading) setGridId(grids.length === 1 ? grids[0]!.id : '');
  }, [grids, gridId, gridList.loading]);

  function begin() {
    if ('missing' in chosen || !roomId || !gridId) return;
    warmAnalysis(chosen.analysis);
    void start.run({ companyId: user.companyId, scanType, roomId, gridId, model: chosen.model, userId: user.userId });
  }

  return (
    <form
      className="card scan-setup"
      onSubmit={(event) => {
        event.preventDefault();
        begin();
      }}
      noValidate
    >
      <h2>{t('now.whatToScan')}</h2>
      <SelectField label={t('now.scan')}>
        {(id) => (
          <select id={id} className="control" value={scanType} onChange={(event) => setScanType(event.target.value as ScanType)}>
            <ChoiceOptions choices={WALKED_TYPES} labels={{ disease: scanTypeName('disease'), sticky_trap: scanTypeName('sticky_trap') }} />
          </select>
        )}
      </SelectField>
      <p className="muted" role="note">
        {'missing' in chosen
          ? t('now.missingModel', { model: chosen.missing })
          : chosen.model.version
            ? t('now.usesVersion', { model: chosen.model.name, version: chosen.model.version })
            : t('now.uses', { model: chosen.model.name })}
      </p>
      <SelectField label={t('now.room')}>
        {(id) => (
        <select id={id} className="control" value={roomId} onChange={(event) => setRoomId(event.target.value)}>
          <option value="">{t('now.chooseRoom')}</option>
          {rooms.map((room) => (
            <option key={room.id} value={room.id}>
              {room.Name ?? t('now.unnamedRoom')}
            </option>
          ))}
        </select>
        )}
      </SelectField>
      <SelectField label={t('now.grid')}>
        {(id) => (
        <select id={id} className="control" value={gridId} onChange={(event) => setGridId(event.target.value)} disabled={!roomId}>
          <option value="">{roomId && !gridList.loading && grids.length === 0 ? t('now.noGrids') : t('now.chooseGrid')}</option>
          {grids.map((grid) => (
            <option key={grid.id} value={grid.id}>
              {grid.Name ?? t('now.unnamedGrid')}
            </option>
          ))}
        </select>
        )}
      </SelectField>
      <FormError error={start.error} />
      <button type="submit" className="button primary" disabled={'missing' in chosen || !roomId || !gridId || start.busy}>
        {start.busy ? t('now.startingShort') : t('now.start')}
      </button>
    </form>
  );
}

function ScanWalk({ user, scan }: { user: SignedInUser; scan: ScanDocument }) {
  const { t } = useTranslation(scansTexts);
  const navigate = useNavigate();
  const company = useCompanyDoc(user.companyId);
  const models = useLocalQuery<AiModelDoc>('operations', AI_MODEL_SELECTOR, 'ai-models').documents;
  const grid = useLocalDocument<GridDoc>('grids', String(scan.grid_id ?? '')).document;
  const boxList = useLocalQuery<BoxDoc>('grid_boxes', { gridId: String(scan.grid_id ?? '') }, `scan-boxes-${String(scan.grid_id)}`);
  const walk = useMemo(() => (grid ? walkOf(grid, boxList.documents, gridOrderOf(company)) : []), [grid, boxList.documents, company]);
  const { catalogue } = useCatalogue();
  const aiModel = (company?.settings as { ai_model?: string } | null | undefined)?.ai_model;
  // The scan runs the model it started with, even if the setting changes meanwhile.
  const chosen = scanModelFor(scan.scan_type, scan.model_key ?? aiModel, models);
  const [index, setIndex] = useState(0);
  // A scan walks a whole grid box by box: the screen stays on until it is done (issue 19).
  useWakeLock(index < walk.length);
  const save = useAction(recordScanBox);
  const recorded = new Set(scan.boxes.map((box) => String(box.grid_box_id)));
  const current = walk[index];

  async function saved(result: BoxResult) {
    if (!current) return;
    const ok = await save.run({ scan, gridBoxId: current.box.id, photo: result.photo, findings: result.findings, marks: result.marks, userId: user.userId });
    if (ok) setIndex((at) => at + 1);
  }

  // The grid and room were marked scanned when the scan started (create_scan): finishing opens what it recorded.
  async function finish() {
    await navigate({ to: '/dashboard/scanHistory/$scanType/$scanHistoryID', params: { scanType: scan.scan_type, scanHistoryID: scan.id } });
  }

  if ('missing' in chosen) return <p className="banner error">{t('walk.missingModel', { model: chosen.missing })}</p>;
  return (
    <div className="scan-walk">
      <div className="card scan-progress">
        <p>
          <strong>{scanTypeName(scan.scan_type)}</strong> {t('walk.of', { room: scan.room_name ?? t('walk.aRoom'), grid: scan.grid_name ?? t('walk.aGrid'), model: scan.model_name })}
        </p>
        <p role="status" aria-live="polite">
          {walk.length === 0 ? t('walk.readingBoxes') : t('walk.progress', { current: Math.min(index + 1, walk.length), total: walk.length, saved: scan.boxes.length })}
        </p>
        <SelectField label={t('walk.goTo')}>
          {(id) => (
          <select id={id} className="control" value={index} onChange={(event) => setIndex(Number(event.target.value))}>
            {walk.map((entry, at) => (
              <option key={entry.box.id} value={at}>
                {`${t('box', { number: entry.number })}${entry.label !== String(entry.number) ? ` · ${entry.label}` : ''}${recorded.has(entry.box.id) ? ` ${t('walk.saved')}` : ''}`}
              </option>
            ))}
          </select>
          )}
        </SelectField>
        <FormError error={save.error} />
        <button type="button" className="button" onClick={() => void finish()} disabled={save.busy}>
          {t('walk.finish')}
        </button>
      </div>
      {current ? (
        <BoxScan key={current.box.id} walkBox={current} analysis={chosen.analysis} catalogue={catalogue} saving={save.busy} onSave={(result) => void saved(result)} onSkip={() => setIndex((at) => at + 1)} />
      ) : (
        walk.length > 0 && <p className="card">{t('walk.allDone')}</p>
      )}
    </div>
  );
}
