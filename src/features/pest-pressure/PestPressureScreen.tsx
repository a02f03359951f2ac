/**
 * The pest-pressure map of a room (spec part 2 `rooms/unresolvedRoom/{roomID}`, issue 14): the room's
 * grids with each box's open problems as circles in the company's colours with their abbreviations, a
 * legend with counts per type, and a week slider that replays the room's state back 12 weeks. From it
 * the grower acts: on one problem (tap its box), on a type in the room or a grid (tap it in the
 * legend), or on all of the room's or a grid's problems (with a question first). All from the local
 * store, so it works offline; every action is queued and shows at once.
 *
 * Decisions where the spec is silent: the slider's steps are the same time of day a week apart; its
 * first step is "Now" (every open problem, whatever clocks said). Panels list and act on the problems
 * open now, whichever week the map shows: a past state cannot be acted on.
 */
import { Link } from '@tanstack/react-router';
import { type CSSProperties, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OPEN_PROBLEM_STATUSES, type ProblemAction } from '../../../common/messages/problems';
import { manageProblem, manageProblemsByType, updateUnresolvedProblems } from '../../api/problems';
import { byCreation } from '../../api/records';
import { localDocumentSelector, type SignedInUser, useAction, useLocalDocument, useLocalQuery, useSignedInUser } from '../../app/hooks';
import type { GridOrder } from '../../../common/messages/settings';
import { type BoxDoc, boxesByGrid, boxLabel, type CompanyDoc, type GridDoc, gridOrderOf, gridSize, roomQueries, type RoomDoc, when, numberOfBox } from '../rooms/model';
import { ConfirmPanel } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { type BoxCircle, colorMappingsOf, indexProblems, keepUnchangedCircles, type LegendEntry, type PressureMap, pressureAt, type ProblemDoc, type ProblemType, REPLAY_WEEKS, weekSteps } from './model';
import { PressureGrid } from './PressureGrid';
import { pestPressureTexts } from './texts';
import './pest-pressure.css';

/** The actions the map offers on open problems, as growers name them (the names' keys). */
const MAP_ACTIONS = [
  { action: 'resolve', label: 'actions.resolve' },
  { action: 'dismiss', label: 'actions.dismiss' },
  { action: 'treat', label: 'actions.treat' },
] as const satisfies ReadonlyArray<{ action: ProblemAction; label: string }>;

/** A selector matching no document: the weeks' query before the slider is touched. */
const NO_DOCUMENT = localDocumentSelector('plant_problems', undefined);
/** The map of a moment whose problems are not read yet. */
const NOTHING_SHOWN: PressureMap = { circles: new Map(), problems: new Map(), legend: [], grids: new Map(), total: 0 };

/** Where a bulk action reaches: the whole room, or one grid. */
type Scope = { kind: 'room' } | { kind: 'grid'; grid: GridDoc };

export function PestPressureScreen({ roomId: addressed }: { roomId: string }) {
  const { t } = useTranslation(pestPressureTexts);
  const user = useSignedInUser();
  const companyKey = user ? String(user.companyId) : '';
  const room = useLocalDocument<RoomDoc>('rooms', addressed);
  // The room's key (its client id), also when the address names it by the spec's integer id.
  const roomId = room.document?.id ?? addressed;
  const gridList = useLocalQuery<GridDoc>('grids', roomQueries.grids(roomId), roomId);
  const grids = useMemo(() => [...gridList.documents].sort(byCreation), [gridList.documents]);
  const gridIds = grids.map((grid) => grid.id);
  const gridKey = gridIds.join(',');
  const boxList = useLocalQuery<BoxDoc>('grid_boxes', roomQueries.boxes(gridIds), gridKey);
  // The map of now reads the room's open problems only; its twelve weeks (up to tens of thousands of
  // problems, mostly closed) are read once the week slider is touched, so the first draw never waits for them.
  const problemList = useLocalQuery<ProblemDoc>('plant_problems', { roomId, status: { $in: [...OPEN_PROBLEM_STATUSES] } }, `pressure-open-${roomId}`);
  const [replaying, setReplaying] = useState(false);
  const historyList = useLocalQuery<ProblemDoc>('plant_problems', replaying ? { roomId } : NO_DOCUMENT, replaying ? `pressure-${roomId}` : '');
  const company = useLocalDocument<CompanyDoc & { problem_color_mappings?: unknown }>('company', companyKey || undefined).document;
  const mappings = company?.problem_color_mappings;
  const order = gridOrderOf(company);

  const boxesOfGrid = useMemo(() => boxesByGrid(boxList.documents), [boxList.documents]);
  const colors = useMemo(() => colorMappingsOf({ problem_color_mappings: mappings }), [mappings]);
  const index = useMemo(() => indexProblems(problemList.documents, boxList.documents, colors), [problemList.documents, boxList.documents, colors]);
  const history = useMemo(() => (replaying && !historyList.loading ? indexProblems(historyList.documents, boxList.documents, colors) : null), [replaying, historyList, boxList.documents, colors]);
  const present = useMemo(() => pressureAt(index, Number.POSITIVE_INFINITY), [index]);
  const [now] = useState(() => Date.now());
  const steps = useMemo(() => weekSteps(now, t), [now, t]);
  const [weeksAgo, setWeeksAgo] = useState(0);
  const step = steps[weeksAgo] ?? steps[0]!;
  // A week back whose problems are still being read shows nothing rather than now's state under its label.
  const shown = useMemo(() => (step.weeksAgo === 0 ? present : history ? pressureAt(history, step.at) : NOTHING_SHOWN), [history, present, step]);
  const readingWeeks = step.weeksAgo > 0 && !history;
  const circles = useStableCircles(shown);

  const [selectedBoxId, setSelectedBoxId] = useState<string | null>(null);
  const [selectedType, setSelectedType] = useState<ProblemType | null>(null);
  const [confirming, setConfirming] = useState<Scope | null>(null);
  const closeBox = useCallback(() => setSelectedBoxId(null), []);
  const closeType = useCallback(() => setSelectedType(null), []);

  const resolveAll = useAction(updateUnresolvedProblems, t('resolved'));
  // An outside consultant reads the map; acting on problems is the company's (the server refuses it too).
  const acts = user?.role !== 'Consultant';
  const document = room.document;
  const loading = !user || room.loading || (document !== null && (gridList.loading || problemList.loading || (grids.length > 0 && boxList.loading)));

  function confirmAll(scope: Scope) {
    if (!user) return;
    const place = scope.kind === 'room' ? { roomId } : { gridId: scope.grid.id };
    void resolveAll.run(place, { action: 'resolve', userId: user.userId }).then((done) => done && setConfirming(null));
  }

  return (
    <Screen
      title={document ? t('titleOf', { room: document.Name ?? t('room') }) : t('title')}
      loading={loading}
      error={resolveAll.error}
      empty={!document ? t('notHere') : null}
      actions={
        document && (
          <>
            <Link className="button" to="/dashboard/rooms/$roomID" params={{ roomID: roomId }}>
              {t('backToRoom')}
            </Link>
            {acts && present.total > 0 && (
              <button type="button" className="button danger" onClick={() => setConfirming({ kind: 'room' })}>
                {t('resolveAllInRoom')}
              </button>
            )}
          </>
        )
      }
    >
      {document && user && (
        <>
          {confirming && (
            <ConfirmPanel
              className="card pp-confirm"
              question={confirming.kind === 'room' ? t('confirm.roomQuestion') : t('confirm.gridQuestion', { grid: confirming.grid.Name ?? t('confirm.thisGrid') })}
              message={
                confirming.kind === 'room'
                  ? t('confirm.room', { count: present.total, room: document.Name ?? t('confirm.thisRoom') })
                  : t('confirm.grid', { count: present.grids.get(confirming.grid.id)?.total ?? 0, grid: confirming.grid.Name ?? t('confirm.thisGrid') })
              }
              confirmLabel={t('confirm.resolveAll')}
              keepLabel={t('confirm.cancel')}
              busy={resolveAll.busy}
              onConfirm={() => confirmAll(confirming)}
              onKeep={() => setConfirming(null)}
            />
          )}
          <WeekSlider steps={steps} weeksAgo={weeksAgo} onChange={setWeeksAgo} onTouched={() => setReplaying(true)} />
          {readingWeeks ? (
            <p className="muted" role="status">
              {t('readingWeeks', { weeks: REPLAY_WEEKS })}
            </p>
          ) : shown.total === 0 ? (
            <p className="empty">{weeksAgo === 0 ? t('noneNow') : t('noneThen', { when: step.label, day: step.day })}</p>
          ) : (
            <Legend map={shown} onPick={setSelectedType} />
          )}
          {grids.length === 0 && <p className="muted">{t('noGrids')}</p>}
          {grids.map((grid) => {
            const gridOpen = present.grids.get(grid.id)?.total ?? 0;
            const gridShown = shown.grids.get(grid.id)?.total ?? 0;
            return (
              <section key={grid.id} className="card pp-grid-section" aria-label={t('grid.section', { grid: grid.Name ?? '' }).trim()}>
                <div className="section-head">
                  <div>
                    <h2>{grid.Name}</h2>
                    <p className="muted" data-count={`grid-${grid.id}`} data-value={gridShown}>
                      {t('openCount', { count: gridShown })}
                      {weeksAgo > 0 && ` ${step.label}`}
                    </p>
                  </div>
                  {acts && gridOpen > 0 && (
                    <button type="button" className="button danger" onClick={() => setConfirming({ kind: 'grid', grid })}>
                      {t('resolveAllInGrid')}
                    </button>
                  )}
                </div>
                <PressureGrid grid={grid} boxes={boxesOfGrid.get(grid.id) ?? []} order={order} circles={circles} selectedId={selectedBoxId} onSelect={setSelectedBoxId} />
              </section>
            );
          })}
          {selectedBoxId && (
            <BoxProblemsPanel
              box={boxList.documents.find((box) => box.id === selectedBoxId) ?? null}
              grids={grids}
              order={order}
              boxesOfGrid={boxesOfGrid}
              problems={present.problems.get(selectedBoxId) ?? []}
              circles={present.circles.get(selectedBoxId) ?? []}
              styleOf={(problem) => index.types.find((type) => type.key === String(problem.problem_type ?? '').trim().toLowerCase()) ?? null}
              pastLabel={weeksAgo > 0 ? step.label : null}
              user={user}
              onClose={closeBox}
            />
          )}
          {selectedType && <TypePanel type={selectedType} roomId={roomId} present={present} grids={grids} user={user} onClose={closeType} />}
        </>
      )}
    </Screen>
  );
}

/** The map's circles, each box's array kept while unchanged (keepUnchangedCircles), so memoised boxes skip re-rendering. */
function useStableCircles(map: PressureMap): ReadonlyMap<string, BoxCircle[]> {
  const previous = useRef<ReadonlyMap<string, BoxCircle[]> | null>(null);
  const circles = useMemo(() => keepUnchangedCircles(previous.current, new Map(map.circles)), [map]);
  useEffect(() => {
    previous.current = circles;
  }, [circles]);
  return circles;
}

/** The week slider: "Now" at the right, 12 weeks ago at the left, each step's week named as it is read out. */
function WeekSlider({ steps, weeksAgo, onChange, onTouched }: { steps: ReturnType<typeof weekSteps>; weeksAgo: number; onChange: (weeksAgo: number) => void; onTouched: () => void }) {
  const { t } = useTranslation(pestPressureTexts);
  const step = steps[weeksAgo] ?? steps[0]!;
  const text = step.weeksAgo === 0 ? step.label : t('slider.past', { when: step.label, day: step.day });
  return (
    <section className="card pp-slider" aria-label={t('slider.label')}>
      <label htmlFor="pp-week" className="pp-slider-label">
        {t('slider.weekShown')} <output htmlFor="pp-week">{text}</output>
      </label>
      <input
        id="pp-week"
        type="range"
        min={0}
        max={REPLAY_WEEKS}
        step={1}
        // Left is the past: the value counts weeks from 12 weeks ago.
        value={REPLAY_WEEKS - weeksAgo}
        aria-valuetext={text}
        // Touching the slider (finger, pointer or keyboard focus) starts reading the weeks it replays.
        onPointerDown={onTouched}
        onFocus={onTouched}
        onChange={(event) => {
          onTouched();
          onChange(REPLAY_WEEKS - Number(event.target.value));
        }}
      />
      {/* The weeks under the track, for the eye; the slider itself says the week shown. */}
      <ol className="pp-ticks" aria-hidden="true">
        {[...steps].reverse().map((candidate) => (
          <li key={candidate.weeksAgo} className={candidate.weeksAgo === weeksAgo ? 'current' : ''}>
            {candidate.weeksAgo === 0 ? candidate.label : t('slider.tick', { weeks: candidate.weeksAgo })}
          </li>
        ))}
      </ol>
      {weeksAgo > 0 && (
        <button type="button" className="button" onClick={() => onChange(0)}>
          {t('slider.backToNow')}
        </button>
      )}
    </section>
  );
}

function Circle({ type, count }: { type: ProblemType; count?: number }) {
  return (
    <span className="pp-circle" style={{ '--pp-color': type.color } as CSSProperties}>
      {type.abbreviation}
      {count !== undefined && <span className="pp-count"> {count}</span>}
    </span>
  );
}

/** The legend: each type shown, with its circle and counts; tapping one opens its actions. */
function Legend({ map, onPick }: { map: PressureMap; onPick: (type: ProblemType) => void }) {
  const { t } = useTranslation(pestPressureTexts);
  return (
    <section className="card pp-legend" aria-label={t('legend.title')}>
      <h2>
        {t('legend.title')} <span className="muted">{t('legend.total', { count: map.total })}</span>
      </h2>
      <ul>
        {map.legend.map((entry: LegendEntry) => (
          <li key={entry.type.key}>
            <button type="button" className="button pp-legend-entry" data-problem={entry.type.key} data-count={entry.count} onClick={() => onPick(entry.type)}>
              <Circle type={entry.type} /> {t('legend.entry', { name: entry.type.name, problems: entry.count, count: entry.boxes })}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A dialog at the side: focus moves in when it opens, Escape and the backdrop close it. */
function SidePanel({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const { t } = useTranslation(pestPressureTexts);
  const panel = useRef<HTMLElement>(null);
  useEffect(() => panel.current?.focus(), [title]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="pp-backdrop" onClick={onClose}>
      <aside ref={panel} tabIndex={-1} className="pp-panel" role="dialog" aria-modal="true" aria-labelledby="pp-panel-title" onClick={(event) => event.stopPropagation()}>
        <div className="pp-panel-head">
          <h2 id="pp-panel-title">{title}</h2>
          <button type="button" className="button" onClick={onClose}>
            {t('panel.close')}
          </button>
        </div>
        {children}
      </aside>
    </div>
  );
}

/** A box's open problems now, each with Resolve, False alarm and Treated. */
function BoxProblemsPanel(props: { box: BoxDoc | null; grids: GridDoc[]; order: GridOrder; boxesOfGrid: Map<string, BoxDoc[]>; problems: ProblemDoc[]; circles: BoxCircle[]; styleOf: (problem: ProblemDoc) => ProblemType | null; pastLabel: string | null; user: SignedInUser; onClose: () => void }) {
  const { t } = useTranslation(pestPressureTexts);
  const act = useAction(manageProblem, undefined);
  const { box } = props;
  const grid = box ? props.grids.find((candidate) => candidate.id === box.gridId) : undefined;
  // Named and numbered as the map shows it (the company's grid order).
  const { nx, ny } = grid && box ? gridSize(grid, props.boxesOfGrid.get(grid.id) ?? []) : { nx: 1, ny: 1 };
  const number = box ? numberOfBox(props.order, box, nx, ny) : 0;
  return (
    <SidePanel title={box ? boxLabel(box, number) : t('panel.box')} onClose={props.onClose}>
      {box && <p className="muted">{t('panel.where', { grid: grid?.Name ?? '', number, column: box.X, row: box.Y })}</p>}
      {props.pastLabel && <p className="muted">{t('panel.mapShows', { when: props.pastLabel })}</p>}
      {act.error && (
        <p className="error-text" role="alert">
          {act.error}
        </p>
      )}
      {props.problems.length === 0 ? (
        <p>{t('panel.noneOnBox')}</p>
      ) : (
        <ul className="pp-problems" aria-label={t('panel.openProblems')}>
          {props.problems.map((problem) => {
            const type = props.styleOf(problem);
            return (
              <li key={problem.id} aria-label={String(problem.problem_type ?? t('panel.problem'))} data-problem-id={problem.id}>
                <div className="pp-problem-line">
                  {type && <Circle type={type} />}
                  <strong>{problem.problem_type}</strong>
                  <span>{t('panel.severity', { severity: problem.severity ?? '?' })}</span>
                  <span className="muted">{t('panel.seen', { time: when(problem.observed_at) })}</span>
                  {problem.status === 'treated' && <span className="chip waiting">{t('panel.treated')}</span>}
                </div>
                {problem.notes && <p className="pp-notes">{problem.notes}</p>}
                {props.user.role !== 'Consultant' && (
                  <div className="form-actions">
                    {MAP_ACTIONS.filter((entry) => !(entry.action === 'treat' && problem.status === 'treated')).map((entry) => (
                      <button key={entry.action} type="button" className={`button${entry.action === 'resolve' ? ' primary' : ''}`} disabled={act.busy} onClick={() => void act.run({ problemId: problem.id, action: entry.action, userId: props.user.userId })}>
                        {t(entry.label)}
                      </button>
                    ))}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </SidePanel>
  );
}

/** A problem type from the legend: its counts now in the room and each grid, and the actions for each. */
function TypePanel(props: { type: ProblemType; roomId: string; present: PressureMap; grids: GridDoc[]; user: SignedInUser; onClose: () => void }) {
  const { type, present, user } = props;
  const { t } = useTranslation(pestPressureTexts);
  const act = useAction(manageProblemsByType, undefined);
  const inRoom = present.legend.find((entry) => entry.type.key === type.key)?.count ?? 0;
  const places = [
    { key: 'room', title: t('panel.inRoom'), count: inRoom, place: { roomId: props.roomId } },
    ...props.grids.map((grid) => ({ key: grid.id, title: t('panel.inGrid', { grid: grid.Name ?? t('panel.gridFallback') }), count: present.grids.get(grid.id)?.byType.get(type.key) ?? 0, place: { gridId: grid.id } })),
  ].filter((entry) => entry.count > 0);
  return (
    <SidePanel title={type.name} onClose={props.onClose}>
      <p className="pp-problem-line">
        <Circle type={type} /> {t('panel.openNow', { problems: inRoom })}
      </p>
      {act.error && (
        <p className="error-text" role="alert">
          {act.error}
        </p>
      )}
      {places.length === 0 && <p>{t('panel.noneOfType', { type: type.name })}</p>}
      {places.map((entry) => (
        <section key={entry.key} className="pp-place" aria-label={entry.title}>
          <h3>{t('panel.count', { place: entry.title, problems: entry.count })}</h3>
          {user.role !== 'Consultant' && (
            <div className="form-actions">
              {MAP_ACTIONS.map((action) => (
                <button key={action.action} type="button" className={`button${action.action === 'resolve' ? ' primary' : ''}`} disabled={act.busy} onClick={() => void act.run(entry.place, { problemType: type.name, action: action.action, userId: user.userId })}>
                  {t(action.label)}
                </button>
              ))}
            </div>
          )}
        </section>
      ))}
    </SidePanel>
  );
}
