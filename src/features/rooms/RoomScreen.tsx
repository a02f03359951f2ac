/**
 * A room (spec part 1 §2 `rooms/{roomID}`): its grids drawn as their boxes, with the company's grid
 * order and opacity; a tapped box opens its panel. Room actions: add a grid, mark the room or a grid
 * scanned (as the signed-in user), reset every scanned status (Admin), grid background images and the
 * whiteboard with its history, and "Fill a form": the company's forms, each opening the fill screen for
 * this room (the whole room or plants picked in it); and the command bar (commands/CommandBar.tsx).
 * Boxes sprayed with a product whose re-entry interval is running show when it ends. All from the local
 * store: a room made offline opens under its temporary id, and the screen follows it to its server id
 * once it syncs.
 */
import { Link } from '@tanstack/react-router';
import { type FormEvent, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deferred } from '../../app/deferred';
import { ChunkFallback, lazyChunk } from '../../app/lazy-chunk';
import { gridMessages } from '../../../common/messages/grids';
import { scanMessages } from '../../../common/messages/scans';
import { byCreation } from '../../api/records';
import { useAction, useLocalDocument, useLocalQuery, type SignedInUser, useSignedInUser } from '../../app/hooks';
import { withFittedPhoto } from '../../app/photos';
import type { LocalDocument } from '../../db/schemas';
import { ConfirmPanel, Field, FormButtons, FormError } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { GridView } from './GridView';
import { usePreview } from './hooks';
import { type BatchDoc, type BoxDoc, boxLabel, type CompanyDoc, type GridDoc, gridOpacityOf, gridOrderOf, gridSize, boxesByGrid, recentTrapBoxIds, roomQueries, type RoomDoc, scanText, numberOfBox } from './model';
import { STICKY_TRAP_CATEGORY } from '../../../common/messages/forms';
import { BOX_SIZES, useUiState } from '../ui-state/ui-state';
import { Whiteboard } from './Whiteboard';
import { CommandBarSlot } from '../commands/CommandBarSlot';
import { nextReentryEnd, type LocalSpray, type Reentry, reentryByBox, reentryEndText, SPRAY_SELECTOR } from '../treatments/intervals';
import './rooms.css';
import { roomsTexts } from './texts';

/**
 * The box panel and the form chooser carry forms, problems, tasks and the problem catalogue: chunks of
 * their own, so a room's cold start loads and runs only what draws its boxes (issue 13: a 2,000-box
 * room offline in ≤ 1 s). The room asks for the panel once its boxes show, so a tap does not wait.
 */
const boxPanel = lazyChunk(async () => (await import('./BoxPanel')).BoxPanel);
/** How long a tap waits for the box panel's chunk before showing it through its fallback (lazy-chunk.tsx `readyWithin`). */
const PANEL_WAIT_MS = 1000;
const templateChooser = lazyChunk(async () => (await import('../forms/fill/TemplateChooser')).TemplateChooser);

/** The room's writes, loaded on first use (app/deferred.ts): the room paints its boxes without them. */
const gridsApi = () => import('../../api/grids');
const scansApi = () => import('../../api/scans');
const roomsApi = () => import('../../api/rooms');
const createGrid = deferred(gridsApi, 'createGrid');
const deleteGrid = deferred(gridsApi, 'deleteGrid');
const uploadGridImage = deferred(gridsApi, 'uploadGridImage');
const markGridScanned = deferred(scansApi, 'markGridScanned');
const markRoomScanned = deferred(scansApi, 'markRoomScanned');
const resetScannedStatus = deferred(scansApi, 'resetScannedStatus');
const updateAllRoomScroll = deferred(roomsApi, 'updateAllRoomScroll');
const updateRoomScroll = deferred(roomsApi, 'updateRoomScroll');

/** Photos are made fit before they are queued (app/photos.ts). */
const uploadFittedGridImage = withFittedPhoto(uploadGridImage);

export function RoomScreen({ roomId: addressed }: { roomId: string }) {
  const { t } = useTranslation(roomsTexts);
  const user = useSignedInUser();
  const companyKey = user ? String(user.companyId) : '';
  const room = useLocalDocument<RoomDoc>('rooms', addressed);
  // The room's key (its client id), also when the address names it by the spec's integer id.
  const roomId = room.document?.id ?? addressed;
  const gridList = useLocalQuery<GridDoc>('grids', roomQueries.grids(roomId), roomId);
  const grids = useMemo(() => [...gridList.documents].sort(byCreation), [gridList.documents]);
  // While the grids are being read, the boxes are asked for by the grid ids this room showed last time:
  // both reads go at once. When the grids arrive with the same ids the boxes' query stands; boxes show
  // only under the grids read now.
  const rememberedGridIds = useUiState((state) => state.roomGridIds[roomId]);
  const setRoomGridIds = useUiState((state) => state.setRoomGridIds);
  const gridIds = gridList.loading ? (rememberedGridIds ?? []) : grids.map((grid) => grid.id);
  const gridKey = gridIds.join(',');
  const boxList = useLocalQuery<BoxDoc>('grid_boxes', roomQueries.boxes(gridIds), gridKey);
  useEffect(() => {
    if (!gridList.loading && gridKey !== rememberedGridIds?.join(',')) setRoomGridIds(roomId, gridKey ? gridKey.split(',') : []);
  }, [gridList.loading, gridKey, rememberedGridIds, roomId, setRoomGridIds]);
  const batchList = useLocalQuery<BatchDoc>('batches', { CompanyID: user?.companyId ?? -1 }, companyKey);
  const company = useLocalDocument<CompanyDoc>('company', companyKey || undefined).document;
  // The box tapped last shows as selected at once. Its panel opens in the same render when the panel's
  // chunk is here (preloaded once the boxes show, when the tablet is idle); else once it arrives, if
  // within PANEL_WAIT_MS, and only then through "Opening box…" (lazy-chunk.tsx `readyWithin`).
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [panelWaitOver, setPanelWaitOver] = useState(false);
  const selectBox = useCallback((boxId: string) => {
    setSelectedId(boxId);
    if (!boxPanel.isLoaded()) void boxPanel.readyWithin(PANEL_WAIT_MS).then(() => setPanelWaitOver(true));
  }, []);
  const panelShown = boxPanel.isLoaded() || panelWaitOver;
  const [addingGrid, setAddingGrid] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  const [choosingForm, setChoosingForm] = useState(false);

  const boxesOfGrid = useMemo(() => boxesByGrid(boxList.documents), [boxList.documents]);
  // Boxes whose sticky trap was read lately get a marker (the company's sticky-trap render value, in weeks).
  const trapResponses = useLocalQuery('form_responses', { roomId, FormCategory: STICKY_TRAP_CATEGORY }, `traps-${roomId}`);
  const trapWeeks = useUiState((state) => state.stickyTrapRender);
  const boxSize = useUiState((state) => state.boxSize);
  const trapBoxIds = useMemo(() => recentTrapBoxIds(trapResponses.documents, trapWeeks), [trapResponses.documents, trapWeeks]);
  const batches = useMemo(() => new Map(batchList.documents.map((batch) => [batch.id, batch])), [batchList.documents]);
  const { reentry, reentryEnds } = useReentry();
  const selectedBox = selectedId ? (boxList.documents.find((box) => box.id === selectedId) ?? null) : null;

  const markRoom = useAction(markRoomScanned, scanMessages.roomScanned);
  const reset = useAction(resetScannedStatus, scanMessages.statusReset);

  const order = gridOrderOf(company);
  const opacity = gridOpacityOf(company);
  const document = room.document;
  const roomRef = document ? document.id : null;
  const shownBoxes = [...boxesOfGrid.values()].flat();
  const plants = shownBoxes.length;
  const culled = shownBoxes.filter((box) => box.culled === true).length;
  const boxesShown = !boxList.loading && plants > 0;
  useEffect(() => {
    if (!boxesShown) return undefined;
    // Once the boxes have painted and the tablet is idle: evaluating the panel's chunks takes the main
    // thread for a while on a tablet (the panel asks for its problems' chunk itself, BoxPanel.tsx).
    const preload = () => void boxPanel.preload();
    const idle = requestIdleCallback(preload, { timeout: 1500 });
    return () => cancelIdleCallback(idle);
  }, [boxesShown]);

  return (
    <Screen
      title={document?.Name ?? t('room.unnamed')}
      loading={!user || room.loading}
      error={markRoom.error ?? reset.error}
      empty={!document ? t('room.notHere') : null}
      actions={
        document &&
        user &&
        roomRef !== null && (
          <>
            <Link className="button" to="/dashboard/rooms">
              {t('room.allRooms')}
            </Link>
            <Link className="button" to="/dashboard/rooms/unresolvedRoom/$roomID" params={{ roomID: roomRef }}>
              {t('room.pestPressure')}
            </Link>
            <button type="button" className="button primary" disabled={markRoom.busy} onClick={() => void markRoom.run({ roomId: roomRef, userId: user.userId })}>
              {t('room.markScanned')}
            </button>
            <button type="button" className="button" aria-expanded={choosingForm} onClick={() => setChoosingForm(!choosingForm)}>
              {t('room.fillForm')}
            </button>
            {!addingGrid && (
              <button type="button" className="button" onClick={() => setAddingGrid(true)}>
                {t('room.addGrid')}
              </button>
            )}
            {/* Resetting is Admin-only on the server (README "Roles"): other roles do not see it. */}
            {user.isAdmin && !confirmReset && (
              <button type="button" className="button danger" onClick={() => setConfirmReset(true)}>
                {t('room.resetScanned')}
              </button>
            )}
          </>
        )
      }
    >
      {document && user && roomRef !== null && (
        <>
          <div className="room-summary">
            {document.Description && <p>{document.Description}</p>}
            <p className="room-facts">
              <span className={`scan-state ${document.Scanned ? 'scanned' : 'not-scanned'}`}>{scanText(document, company)}</span>
              <span>{[t('counts.grids', { count: grids.length }), t('counts.positions', { count: plants }), t('counts.culled', { count: culled })].join(' · ')}</span>
            </p>
          </div>
          {/* The grid a command that names none means: the tapped box's, else the room's only one. */}
          <CommandBarSlot user={user} roomId={roomId} gridId={selectedBox?.gridId ?? (grids.length === 1 ? grids[0]!.id : null)} />
          {confirmReset && (
            <ConfirmPanel
              className="card"
              question={t('room.resetQuestion')}
              message={t('room.resetMessage')}
              confirmLabel={t('room.resetConfirm')}
              keepLabel={t('room.resetKeep')}
              busy={reset.busy}
              onConfirm={() => void reset.run({}).then((done) => done && setConfirmReset(false))}
              onKeep={() => setConfirmReset(false)}
            />
          )}
          {choosingForm && (
            <section className="card form-chooser" aria-label={t('room.fillForm')}>
              <div className="section-head">
                <h2>{t('room.fillFormHeading')}</h2>
                <button type="button" className="button" onClick={() => setChoosingForm(false)}>
                  {t('room.close')}
                </button>
              </div>
              <Suspense fallback={<ChunkFallback>{t('room.loadingForms')}</ChunkFallback>}>
                <templateChooser.Component companyId={user.companyId} search={{ room: roomId }} />
              </Suspense>
            </section>
          )}
          {addingGrid && <CreateGridForm companyId={user.companyId} roomId={roomRef} onDone={() => setAddingGrid(false)} />}
          {grids.length > 0 && <RoomView room={document} user={user} boxesShown={boxesShown} />}
          {gridList.loading ? null : grids.length === 0 ? (
            <p className="empty">{t('room.noGrids')}</p>
          ) : (
            <div className="room-grids" data-box-size={boxSize}>
              {grids.map((grid) => (
              <GridSection
                key={grid.id}
                grid={grid}
                boxes={boxesOfGrid.get(grid.id) ?? []}
                user={user}
                company={company}
                order={order}
                opacity={opacity}
                batches={batches}
                trapBoxIds={trapBoxIds}
                reentryEnds={reentryEnds}
                selectedId={selectedId}
                onSelect={selectBox}
              />
              ))}
            </div>
          )}
          <Whiteboard room={document} roomId={roomRef} company={company} />
          {selectedBox &&
            panelShown &&
            (() => {
              const grid = grids.find((candidate) => candidate.id === selectedBox.gridId);
              if (!grid) return null;
              const { nx, ny } = gridSize(grid, boxesOfGrid.get(grid.id) ?? []);
              const number = numberOfBox(order, selectedBox, nx, ny);
              return (
                <Suspense fallback={<ChunkFallback>{t('room.openingBox')}</ChunkFallback>}>
                  <boxPanel.Component
                    box={selectedBox}
                    grid={grid}
                    number={number}
                    label={boxLabel(selectedBox, number)}
                    reentry={reentry.get(selectedBox.id) ?? null}
                    batches={batchList.documents}
                    company={company}
                    user={user}
                    onClose={() => setSelectedId(null)}
                  />
                </Suspense>
              );
            })()}
        </>
      )}
    </Screen>
  );
}

/**
 * The boxes inside a re-entry interval now, from one local query of the company's sprays (also
 * offline): each box's entry for its panel, and for the grid the end as a box shows it. The screen
 * redraws when the first shown interval ends, so a marker goes away on time while the room stays open.
 */
function useReentry(): { reentry: Map<string, Reentry>; reentryEnds: Map<string, string> } {
  const sprays = useLocalQuery<LocalDocument & LocalSpray>('operations', SPRAY_SELECTOR, 'sprays');
  const [now, setNow] = useState(() => Date.now());
  const reentry = useMemo(() => reentryByBox(sprays.documents, now), [sprays.documents, now]);
  const reentryEnds = useMemo(() => new Map([...reentry].map(([boxId, entry]) => [boxId, reentryEndText(entry.until, now)])), [reentry, now]);
  useEffect(() => {
    const next = nextReentryEnd(reentry);
    if (next === null) return undefined;
    // setTimeout's longest wait is about 24.8 days; a later end is looked at again after that.
    const timer = setTimeout(() => setNow(Date.now()), Math.min(Math.max(0, next - Date.now()) + 250, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [reentry]);
  return { reentry, reentryEnds };
}

/**
 * How the room is viewed on this tablet: the box size (kept on the tablet), and where the room opens.
 * Where the spec is silent: the room's StartScroll (get/update_room_scroll) is the vertical position,
 * in CSS pixels, the room opens at on every tablet of the company; "Start here" sets it to where the
 * grower is, and Admins can start every room at the top (update_all_room_scroll). Each tablet also
 * keeps its own last position per room (the persisted scroll page), which wins on that tablet, so
 * coming back to a room returns to the same row.
 */
function RoomView({ room, user, boxesShown }: { room: RoomDoc; user: SignedInUser; boxesShown: boolean }) {
  const { t } = useTranslation(roomsTexts);
  const boxSize = useUiState((state) => state.boxSize);
  const setBoxSize = useUiState((state) => state.setBoxSize);
  const lastPosition = useUiState((state) => state.scrollPages[room.id]);
  const setScrollPage = useUiState((state) => state.setScrollPage);
  const startHere = useAction(updateRoomScroll, t('view.startHereDone'));
  const allAtTop = useAction(updateAllRoomScroll, t('view.allAtTopDone'));
  const start = lastPosition ?? (typeof room.StartScroll === 'number' ? room.StartScroll : 0);
  const restored = useRef(false);
  useEffect(() => {
    // Once, when the boxes first show (before, the page is too short to scroll to it): later changes of
    // StartScroll (another tablet's) must not move the screen under the grower.
    if (restored.current || !boxesShown) return;
    restored.current = true;
    if (start <= 0) return undefined;
    // Grids far from the screen are laid out with estimated heights until seen (content-visibility),
    // and the browser keeps what is on screen in place as the real ones arrive, moving the scroll
    // position: for a moment after opening, until the grower touches the screen, the room is put back
    // at its position whenever its layout changes.
    let settling = true;
    const place = () => settling && Math.round(window.scrollY) !== start && window.scrollTo({ top: start });
    const stop = () => {
      settling = false;
    };
    const resized = new ResizeObserver(() => requestAnimationFrame(place));
    resized.observe(document.body);
    const inputs = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
    for (const input of inputs) window.addEventListener(input, stop, { passive: true, once: true });
    const timer = setTimeout(stop, 1500);
    requestAnimationFrame(place);
    return () => {
      stop();
      clearTimeout(timer);
      resized.disconnect();
      for (const input of inputs) window.removeEventListener(input, stop);
    };
  }, [start, boxesShown]);
  useEffect(() => {
    const roomId = room.id;
    return () => setScrollPage(roomId, Math.round(window.scrollY));
  }, [room.id, setScrollPage]);
  return (
    <div className="room-view" role="toolbar" aria-label={t('view.label')}>
      <span className="room-view-label" id="box-size-label">
        {t('view.boxSize')}
      </span>
      <span className="segmented" role="group" aria-labelledby="box-size-label">
        {BOX_SIZES.map((size) => (
          <button key={size} type="button" className="button" aria-pressed={boxSize === size} onClick={() => setBoxSize(size)}>
            {t(`view.sizes.${size}`)}
          </button>
        ))}
      </span>
      <button
        type="button"
        className="button"
        disabled={startHere.busy}
        onClick={() => {
          const position = Math.round(window.scrollY);
          setScrollPage(room.id, position);
          void startHere.run({ companyId: user.companyId, roomId: room.id, value: position });
        }}
      >
        {t('view.startHere')}
      </button>
      {user.isAdmin && (
        <button type="button" className="button" disabled={allAtTop.busy} onClick={() => void allAtTop.run({ companyId: user.companyId, value: 0 })}>
          {t('view.allAtTop')}
        </button>
      )}
    </div>
  );
}

function CreateGridForm({ companyId, roomId, onDone }: { companyId: number; roomId: string; onDone: () => void }) {
  const { t } = useTranslation(roomsTexts);
  const [name, setName] = useState('');
  const [nx, setNx] = useState('4');
  const [ny, setNy] = useState('6');
  const create = useAction(createGrid, gridMessages.gridCreated);
  async function submit(event: FormEvent) {
    event.preventDefault();
    // createGrid checks with the spec's messages ('Grid name is required.', the size's bounds).
    if (await create.run({ companyId, roomId, name, nx: Number(nx), ny: Number(ny) })) onDone();
  }
  return (
    <form className="form card grid-form" onSubmit={(event) => void submit(event)} noValidate aria-label={t('createGrid.label')}>
      <h2>{t('createGrid.heading')}</h2>
      <Field label={t('createGrid.name')}>
        <input name="gridName" value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" autoFocus />
      </Field>
      <div className="form-row">
        <Field label={t('createGrid.columns')}>
          <input name="nx" type="number" inputMode="numeric" min={1} max={100} value={nx} onChange={(event) => setNx(event.target.value)} />
        </Field>
        <Field label={t('createGrid.rows')}>
          <input name="ny" type="number" inputMode="numeric" min={1} max={100} value={ny} onChange={(event) => setNy(event.target.value)} />
        </Field>
      </div>
      <FormError error={create.error} />
      <FormButtons submitLabel={t('createGrid.submit')} busy={create.busy} onCancel={onDone} />
    </form>
  );
}

function GridSection(props: {
  grid: GridDoc;
  boxes: BoxDoc[];
  user: SignedInUser;
  company: CompanyDoc | null;
  order: ReturnType<typeof gridOrderOf>;
  opacity: number;
  batches: Map<string, BatchDoc>;
  trapBoxIds: ReadonlySet<string>;
  reentryEnds: ReadonlyMap<string, string>;
  selectedId: string | null;
  onSelect: (boxId: string) => void;
}) {
  const { t } = useTranslation(roomsTexts);
  const { grid, boxes, user } = props;
  const gridRef = grid.id;
  const { nx, ny } = gridSize(grid, boxes);
  const markGrid = useAction(markGridScanned, scanMessages.gridScanned);
  const upload = useAction(uploadFittedGridImage, scanMessages.gridImageUploaded);
  const remove = useAction(deleteGrid, gridMessages.gridDeleted);
  const [confirmDelete, setConfirmDelete] = useState(false);
  // A picked background shows until the server's copy arrives with the grid (its ImageName changes).
  const [picked, setPicked] = useState<{ file: File; over: string | null } | null>(null);
  const stale = picked !== null && (grid.ImageName ?? null) !== picked.over;
  const preview = usePreview(picked && !stale ? picked.file : null);
  const culled = boxes.filter((box) => box.culled === true).length;

  async function choose(file: File | undefined) {
    if (!file) return;
    if (await upload.run({ gridId: gridRef, image: file, fileName: file.name })) setPicked({ file, over: grid.ImageName ?? null });
  }

  return (
    <section className="card grid-section" aria-label={t('grid.label', { name: grid.Name ?? '' }).trim()}>
      <div className="section-head">
        <div>
          <h2>{grid.Name}</h2>
          <p className="muted">
            {t('grid.size', { nx, ny })} · {t('counts.culled', { count: culled })} · <span className={`scan-state ${grid.Scanned ? 'scanned' : 'not-scanned'}`}>{scanText(grid, props.company)}</span>
          </p>
        </div>
        <div className="section-actions">
          <button type="button" className="button" disabled={markGrid.busy} onClick={() => void markGrid.run({ gridId: gridRef, userId: user.userId })}>
            {t('grid.markScanned')}
          </button>
          <label className="button file-button">
            {t('grid.background')}
            <input type="file" accept="image/*" aria-label={grid.Name != null ? t('grid.backgroundFileOf', { name: grid.Name }) : t('grid.backgroundFile')} onChange={(event) => void choose(event.target.files?.[0]).then(() => (event.target.value = ''))} />
          </label>
          {user.isAdmin && !confirmDelete && (
            <button type="button" className="button danger" onClick={() => setConfirmDelete(true)}>
              {t('grid.delete')}
            </button>
          )}
        </div>
      </div>
      {confirmDelete && (
        <ConfirmPanel
          question={t('grid.deleteQuestion', { name: grid.Name ?? '' })}
          message={t('grid.deleteMessage', { name: grid.Name ?? '', count: boxes.length })}
          confirmLabel={t('grid.delete')}
          keepLabel={t('grid.keep')}
          busy={remove.busy}
          onConfirm={() => void remove.run({ gridId: gridRef })}
          onKeep={() => setConfirmDelete(false)}
        />
      )}
      <FormError error={upload.error ?? markGrid.error ?? remove.error} />
      {boxes.length === 0 ? (
        <p className="muted">{t('grid.loadingBoxes')}</p>
      ) : (
        <GridView grid={grid} boxes={boxes} order={props.order} opacity={props.opacity} batches={props.batches} trapBoxIds={props.trapBoxIds} reentryEnds={props.reentryEnds} previewImage={preview} selectedId={props.selectedId} onSelect={props.onSelect} />
      )}
    </section>
  );
}
