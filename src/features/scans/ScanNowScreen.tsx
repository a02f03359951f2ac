/**
 * scanNow (issue 17): a grower picks a room and grid and what to scan (disease, with the company's AI
 * model, or sticky traps), then walks the grid's boxes in the company's order, photographing each with
 * the tablet's camera. Each photo is analysed on the tablet at once; the grower confirms or corrects
 * the findings (or the trap's marks) and saves. Every step is queued: a scan works with no signal, and
 * its photos and findings reach the server once. Finishing marks the grid and the room scanned.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { SCAN_TYPES } from '../../../common/messages/scans';
import type { ScanType } from '../../../common/schemas/scans';
import type { ApiContext } from '../../api/context';
import { byCreation } from '../../api/records';
import { recordScanBox, type ScanDocument, startScan } from '../../api/scans';
import { type SignedInUser, useAction, useLocalDocument, useLocalQuery } from '../../app/hooks';
import { useCatalogue } from '../plant-problems/useCatalogue';
import { useCompanyDoc, useCompanyRooms } from '../plant-moves/places';
import { type BoxDoc, type GridDoc, gridOrderOf } from '../rooms/model';
import { SignedIn } from '../session/SignedIn';
import { ChoiceOptions, FormError, SelectField } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { warmAnalysis } from './analyse';
import { BoxScan, type BoxResult } from './BoxScan';
import { AI_MODEL_SELECTOR, type AiModelDoc, SCAN_TYPE_NAMES, scanModelFor, walkOf } from './model';
import './scans.css';

/** The two scans a grower walks; camera scans come from automated cameras. */
const WALKED_TYPES = SCAN_TYPES.filter((type) => type !== 'camera');

export interface ScanNowSearch {
  room?: string;
  grid?: string;
  type?: ScanType;
}

export function ScanNowScreen(props: { search: ScanNowSearch }) {
  return <SignedIn title="Scan now">{(user) => <ScanNow user={user} search={props.search} />}</SignedIn>;
}

function ScanNow({ user, search }: { user: SignedInUser; search: ScanNowSearch }) {
  const [scanId, setScanId] = useState<string | null>(null);
  const scan = useLocalDocument<ScanDocument>('operations', scanId ?? undefined).document;
  return (
    <Screen title="Scan now" actions={<Link to="/dashboard/scanHistory">Scan history</Link>}>
      {scanId === null ? <ScanSetup user={user} search={search} onStarted={setScanId} /> : scan ? <ScanWalk user={user} scan={scan} /> : <p role="status">Starting the scan…</p>}
    </Screen>
  );
}

function ScanSetup({ user, search, onStarted }: { user: SignedInUser; search: ScanNowSearch; onStarted: (scanId: string) => void }) {
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
      <h2>What to scan</h2>
      <SelectField label="Scan">
        {(id) => (
          <select id={id} className="control" value={scanType} onChange={(event) => setScanType(event.target.value as ScanType)}>
            <ChoiceOptions choices={WALKED_TYPES} labels={SCAN_TYPE_NAMES} />
          </select>
        )}
      </SelectField>
      <p className="muted" role="note">
        {'missing' in chosen
          ? `The company’s AI model “${chosen.missing}” is not on this tablet yet. Connect once so it arrives, or ask an Admin to choose another in Settings.`
          : `Uses ${chosen.model.name}${chosen.model.version ? ` (version ${chosen.model.version})` : ''}, on this tablet: it works with no signal.`}
      </p>
      <SelectField label="Room">
        {(id) => (
        <select id={id} className="control" value={roomId} onChange={(event) => setRoomId(event.target.value)}>
          <option value="">Choose a room</option>
          {rooms.map((room) => (
            <option key={room.id} value={room.id}>
              {room.Name ?? 'Unnamed room'}
            </option>
          ))}
        </select>
        )}
      </SelectField>
      <SelectField label="Grid">
        {(id) => (
        <select id={id} className="control" value={gridId} onChange={(event) => setGridId(event.target.value)} disabled={!roomId}>
          <option value="">{roomId && !gridList.loading && grids.length === 0 ? 'This room has no grids' : 'Choose a grid'}</option>
          {grids.map((grid) => (
            <option key={grid.id} value={grid.id}>
              {grid.Name ?? 'Unnamed grid'}
            </option>
          ))}
        </select>
        )}
      </SelectField>
      <FormError error={start.error} />
      <button type="submit" className="button primary" disabled={'missing' in chosen || !roomId || !gridId || start.busy}>
        {start.busy ? 'Starting…' : 'Start scan'}
      </button>
    </form>
  );
}

function ScanWalk({ user, scan }: { user: SignedInUser; scan: ScanDocument }) {
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

  if ('missing' in chosen) return <p className="banner error">The model this scan started with (“{chosen.missing}”) is not on this tablet.</p>;
  return (
    <div className="scan-walk">
      <div className="card scan-progress">
        <p>
          <strong>{SCAN_TYPE_NAMES[scan.scan_type]}</strong> of {scan.room_name ?? 'a room'} · {scan.grid_name ?? 'a grid'} with {scan.model_name}
        </p>
        <p role="status" aria-live="polite">
          {walk.length === 0 ? 'Reading the grid’s boxes…' : `Box ${Math.min(index + 1, walk.length)} of ${walk.length} · ${scan.boxes.length} saved`}
        </p>
        <SelectField label="Go to box">
          {(id) => (
          <select id={id} className="control" value={index} onChange={(event) => setIndex(Number(event.target.value))}>
            {walk.map((entry, at) => (
              <option key={entry.box.id} value={at}>
                {`Box ${entry.number}${entry.label !== String(entry.number) ? ` · ${entry.label}` : ''}${recorded.has(entry.box.id) ? ' (saved)' : ''}`}
              </option>
            ))}
          </select>
          )}
        </SelectField>
        <FormError error={save.error} />
        <button type="button" className="button" onClick={() => void finish()} disabled={save.busy}>
          Finish scan
        </button>
      </div>
      {current ? (
        <BoxScan key={current.box.id} walkBox={current} analysis={chosen.analysis} catalogue={catalogue} saving={save.busy} onSave={(result) => void saved(result)} onSkip={() => setIndex((at) => at + 1)} />
      ) : (
        walk.length > 0 && <p className="card">Every box of the grid is done. Finish the scan to see what it recorded.</p>
      )}
    </div>
  );
}
