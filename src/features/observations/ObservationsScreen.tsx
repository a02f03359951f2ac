/**
 * Observations: the form responses of a grid's boxes over a range of days, per box, with their answers
 * and photos, and the room's whole-room responses apart. Read reactively from the local
 * `form_responses` collection (so a form just filled shows at once, online or not); for days older than
 * the tablet holds, the grower loads the grid's responses from the server (get_responses_for_grid2).
 *
 * Where the spec is silent:
 * - The grower picks a room, then a grid (the first by default), then the days (the last 7 by default);
 *   the choice is in the address, so a reload or a shared link shows the same.
 * - Days are the tablet's calendar days. The server filters UTC days, so the load asks one day more on
 *   each side and the screen keeps the asked days.
 * - Boxes without responses in the range are not listed; boxes go by their number.
 * - Sticky-trap responses carry a "Sticky trap" mark; a photo not yet sent says so instead of a picture.
 * - Each response offers "Make a task", or opens the task made from it (tasks/TaskAction.tsx), and
 *   "Correct" (CorrectResponse.tsx, issue 18).
 * - Loaded responses stay until the grid or days change (they are not kept on the tablet).
 */
import { Link } from '@tanstack/react-router';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FormResponse, getResponsesForGrid2, newestFirst } from '../../api/form-responses';
import { byCreation } from '../../api/records';
import { useApiContext, useLocalDocument, useLocalQuery, type SignedInUser } from '../../app/hooks';
import type { LocalDocument } from '../../db/schemas';
import { i18next } from '../../i18n/i18n';
import { messageOf } from '../../i18n/messages';
import { useSyncStatus } from '../../sync/sync-store';
import { placeBoxes } from '../forms/fill/model';
import { type BoxDoc, boxLabel, byName, type CompanyDoc, type GridDoc, gridOrderOf, type RoomDoc, when } from '../rooms/model';
import { SignedIn } from '../session/SignedIn';
import { InitialPull, useInitialPull } from '../shell/InitialPull';
import { Screen } from '../shell/Screen';
import { TaskAction } from '../tasks/TaskAction';
import { addDays, byBox, defaultRange, firstLocalDay, isDay, LOCAL_WINDOW_DAYS, mergeResponses, withinDays } from './model';
import { ResponseCard } from './ResponseCard';
import { observationsTexts } from './texts';
import './observations.css';

type ResponseDoc = LocalDocument & FormResponse;

/** A load that found no connection (its text is said at render). */
const OFFLINE = 'offline';

/** Ids are text here; a server id may be given as a number so the address reads `room=12`. */
export interface ObservationsSearch {
  room?: string | number;
  grid?: string | number;
  start?: string;
  end?: string;
}

export function ObservationsScreen(props: { search: ObservationsSearch; onSearch: (next: ObservationsSearch) => void }) {
  const { t } = useTranslation(observationsTexts);
  return <SignedIn title={t('title')}>{(user) => <Observations user={user} {...props} />}</SignedIn>;
}

function Observations({ user, search, onSearch }: { user: SignedInUser; search: ObservationsSearch; onSearch: (next: ObservationsSearch) => void }) {
  const { t } = useTranslation(observationsTexts);
  const companyKey = String(user.companyId);
  const roomList = useLocalQuery<RoomDoc>('rooms', { CompanyID: user.companyId }, companyKey);
  const rooms = useMemo(() => [...roomList.documents].sort(byName), [roomList.documents]);
  // The room asked for; a company with one room needs no choosing.
  const roomId = rooms.find((room) => room.id === String(search.room ?? ''))?.id ?? (rooms.length === 1 ? rooms[0]!.id : null);
  const gridList = useLocalQuery<GridDoc>('grids', { roomId: roomId ?? '\u0000' }, roomId ?? '');
  const grids = useMemo(() => [...gridList.documents].sort(byCreation), [gridList.documents]);
  const grid = grids.find((candidate) => candidate.id === String(search.grid ?? '')) ?? grids[0] ?? null;
  const range = defaultRange();
  const start = isDay(search.start) ? search.start : range.start;
  const end = isDay(search.end) ? search.end : range.end;
  const reversed = start > end;

  const set = (patch: ObservationsSearch) => onSearch({ ...search, ...patch });
  const ids = useId();
  const pulling = useInitialPull();

  // A new tablet's first pull: the rooms (and their observations) are on their way, not missing.
  if (pulling && rooms.length === 0) {
    return (
      <Screen title={t('title')} loading={roomList.loading}>
        <InitialPull progress={pulling} />
      </Screen>
    );
  }

  return (
    <Screen title={t('title')} loading={roomList.loading} empty={rooms.length === 0 ? t('noRooms') : null}>
      <div className="card observation-controls">
        {/* Labels beside (not around) their controls: a wrapped select or date would put its value into the control's name. */}
        <div>
          <label htmlFor={`${ids}-room`}>{t('controls.room')}</label>
          <select id={`${ids}-room`} className="control" value={roomId ?? ''} onChange={(event) => set({ room: event.target.value || undefined, grid: undefined })}>
            <option value="">{t('controls.chooseRoom')}</option>
            {rooms.map((room) => (
              <option key={room.id} value={room.id}>
                {room.Name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${ids}-grid`}>{t('controls.grid')}</label>
          <select id={`${ids}-grid`} className="control" value={grid?.id ?? ''} disabled={!roomId || grids.length === 0} onChange={(event) => set({ grid: event.target.value || undefined })}>
            {grids.length === 0 && <option value="">{!roomId ? t('controls.chooseRoomFirst') : gridList.loading ? t('controls.loadingGrids') : t('controls.noGrids')}</option>}
            {grids.map((each) => (
              <option key={each.id} value={each.id}>
                {each.Name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${ids}-start`}>{t('controls.from')}</label>
          <input id={`${ids}-start`} className="control" type="date" value={start} max={end} onChange={(event) => isDay(event.target.value) && set({ start: event.target.value })} />
        </div>
        <div>
          <label htmlFor={`${ids}-end`}>{t('controls.to')}</label>
          <input id={`${ids}-end`} className="control" type="date" value={end} min={start} onChange={(event) => isDay(event.target.value) && set({ end: event.target.value })} />
        </div>
      </div>
      {reversed ? (
        <p className="banner error" role="alert">
          {t('reversed')}
        </p>
      ) : !roomId ? (
        <p className="empty">{t('chooseRoom')}</p>
      ) : (
        <RoomObservations key={`${roomId}|${grid?.id ?? ''}|${start}|${end}`} user={user} roomId={roomId} room={rooms.find((room) => room.id === roomId)!} grid={grid} gridsLoading={gridList.loading} start={start} end={end} />
      )}
    </Screen>
  );
}

function RoomObservations(props: { user: SignedInUser; roomId: string; room: RoomDoc; grid: GridDoc | null; gridsLoading: boolean; start: string; end: string }) {
  const { t } = useTranslation(observationsTexts);
  const { grid, start, end, roomId } = props;
  const context = useApiContext();
  const online = useSyncStatus((status) => status.online);
  const company = useLocalDocument<CompanyDoc>('company', String(props.user.companyId)).document;
  const gridId = grid?.id ?? '\u0000';
  const boxList = useLocalQuery<BoxDoc>('grid_boxes', { gridId }, gridId);
  const boxes = boxList.documents;
  const boxIds = boxList.documents.map((box) => box.id);
  const local = useLocalQuery<ResponseDoc>('form_responses', { gridBoxId: { $in: boxIds } }, boxIds.join(','));
  const roomWide = useLocalQuery<ResponseDoc>('form_responses', { roomId, gridBoxId: '' }, `room-${roomId}`);
  // `error`: the failed call's message, or 'offline' when there was no connection (said in the reader's language at render).
  const [loaded, setLoaded] = useState<{ responses: FormResponse[]; busy: boolean; error: string | null; done: boolean }>({ responses: [], busy: false, error: null, done: false });

  const responses = useMemo(() => mergeResponses(local.documents.filter((response) => withinDays(response, start, end)), loaded.responses, boxes), [local.documents, loaded.responses, boxes, start, end]);
  const roomResponses = useMemo(() => roomWide.documents.filter((response) => withinDays(response, start, end)).sort(newestFirst), [roomWide.documents, start, end]);
  const placed = useMemo(() => (grid ? placeBoxes(boxes, [grid], boxes, gridOrderOf(company)) : []), [boxes, grid, company]);
  const grouped = useMemo(() => byBox(responses), [responses]);
  const withResponses = placed.filter((each) => grouped.has(each.box.id));
  const older = start < firstLocalDay();

  async function loadFromServer() {
    if (!context || !grid) return;
    setLoaded((state) => ({ ...state, busy: true, error: null }));
    try {
      // The server filters UTC days: ask a day more on each side, keep the tablet's days.
      const answer = await getResponsesForGrid2(context, { gridId: grid.id, startDate: addDays(start, -1), endDate: addDays(end, 1) });
      if (answer.offline) {
        setLoaded((state) => ({ ...state, busy: false, error: OFFLINE }));
        return;
      }
      setLoaded({ responses: answer.all_responses.filter((response) => withinDays(response, start, end)), busy: false, error: null, done: true });
    } catch (error) {
      setLoaded((state) => ({ ...state, busy: false, error: messageOf(error) }));
    }
  }

  const loading = props.gridsLoading || boxList.loading || local.loading || roomWide.loading;
  return (
    <>
      <div className={`window-note${older ? ' older' : ''}`} role="status">
        <p>
          {t('window.keeps', { days: LOCAL_WINDOW_DAYS })}
          {older && !loaded.done && ` ${t('window.olderMissing')}`}
          {loaded.done && ` ${t('window.loaded', { count: loaded.responses.length })}`}
        </p>
        {older && grid && (
          <button type="button" className="button" disabled={loaded.busy || !online} onClick={() => void loadFromServer()}>
            {loaded.busy ? t('window.loading') : loaded.done ? t('window.loadAgain') : t('window.load')}
          </button>
        )}
        {older && !online && <p className="muted">{t('window.needsConnection')}</p>}
        {loaded.error && (
          <p className="error-text" role="alert">
            {loaded.error === OFFLINE ? t('window.noConnection') : loaded.error}
          </p>
        )}
      </div>
      {loading ? (
        <p className="muted">{t('loading')}</p>
      ) : (
        <>
          <p className="observation-summary" data-responses={responses.length}>
            {summaryOf(grid, responses.length, withResponses.length, roomResponses.length)}
          </p>
          {!grid ? (
            <p className="empty">{t('noGrids')}</p>
          ) : withResponses.length === 0 ? (
            <p className="empty">{t('noResponses', { grid: grid.Name })}</p>
          ) : (
            <div className="observation-boxes">
              {withResponses.map((each) => (
                <section key={each.box.id} className="card observation-box" aria-label={t('box', { number: each.number })}>
                  <h2>
                    {each.label === boxLabel({ ...each.box, CustomName: null }, each.number) ? each.label : t('namedBox', { name: each.label, number: each.number })}
                    {each.box.culled === true && <span className="tag culled-tag">{t('culled')}</span>}
                  </h2>
                  <ResponseList responses={grouped.get(each.box.id) ?? []} company={company} />
                </section>
              ))}
            </div>
          )}
          <section className="card observation-box room-wide" aria-label={t('wholeRoom')}>
            <h2>{t('wholeRoomOf', { room: props.room.Name })}</h2>
            {roomResponses.length === 0 ? <p className="muted">{t('noWholeRoom')}</p> : <ResponseList responses={roomResponses} company={company} />}
          </section>
        </>
      )}
    </>
  );
}

/** "Bench A: 3 responses in 2 boxes · 1 for the whole room" (called at render). */
function summaryOf(grid: GridDoc | null, responses: number, boxes: number, room: number): string {
  const summary = i18next.t('summary.text', {
    ns: observationsTexts,
    responses: i18next.t('summary.responses', { ns: observationsTexts, count: responses }),
    boxes: i18next.t('summary.boxes', { ns: observationsTexts, count: boxes }),
    room,
  });
  return grid ? i18next.t('summary.ofGrid', { ns: observationsTexts, grid: grid.Name, summary }) : summary;
}

function ResponseList({ responses, company }: { responses: FormResponse[]; company: CompanyDoc | null }) {
  const { t } = useTranslation(observationsTexts);
  return (
    <ul className="responses">
      {responses.map((response) => (
        <ResponseCard key={String(response.ResponseID)} response={response} company={company}>
          <div className="response-actions">
            <TaskAction response={response} />
            <Link to="/dashboard/rooms/FormEdit" search={{ response: String(response.ResponseID) }} className="button" aria-label={t('correctNamed', { form: response.TemplateName, when: when(response.SubmittedAt) })}>
              {t('correct')}
            </Link>
          </div>
        </ResponseCard>
      ))}
    </ul>
  );
}
