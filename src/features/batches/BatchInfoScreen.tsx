/**
 * One batch at a glance (spec part 1 §2 batch-info/{batchId}; the batch's QR code opens it): plants
 * and positions, rooms, grids and boxes, open problems, dates, status and history, with a printable
 * QR label. Online it shows the server's dashboard (get_batch_dashboard); offline, or while a change
 * made on this tablet has not reached the server yet, the tablet's own copy of the batch.
 */
import { gridOrderOf } from '../rooms/model';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { BatchDashboard, BatchProblemRecord } from '../../../common/schemas/batches';
import { batchQr, batchQrUrl, getBatchDashboard, type BatchEvent } from '../../api/batches';
import { unanswered } from '../../api/context';
import { useApiContext, useLocalDocument, useToast } from '../../app/hooks';
import { formatNumber } from '../../i18n/format';
import { messageOf } from '../../i18n/messages';
import { useSyncStatus } from '../../sync/sync-store';
import { Screen } from '../shell/Screen';
import { useBoxes, useCompany, usePlaces, useSignedIn } from './hooks';
import { boxLabel, formatDay, formatMoment, gridName, idsOf, paintable, roomName, roomsOfBatch, type LocalBatch, type UserLike } from './model';
import './batches.css';
import { HistoryEntry, ProblemEntry } from './Entries';
import { batchesTexts, statusName } from './texts';

/** What the screen shows, from the server's batch_details or from the local document. */
interface BatchAtAGlance {
  source: 'server' | 'tablet';
  BatchNumber: string;
  StrainName: string | null;
  BatchStatus: string;
  Color: string | null;
  plants: { planned: number; positions: number; culled: number };
  rooms: string[];
  grids: string[];
  boxes: string[];
  openProblems: BatchProblemRecord[];
  history: BatchEvent[];
  dates: { start: string | null; end: string | null; harvested: string | null; days: number | null };
}

const DAY_MS = 86_400_000;

/** Days from the start date to the end date (or today), as the server counts them. */
function daysGrowing(start: string | null, end: string | null): number | null {
  if (!start) return null;
  const from = Date.parse(`${start}T00:00:00Z`);
  const to = end ? Date.parse(`${end}T00:00:00Z`) : Date.now();
  return Number.isNaN(from) ? null : Math.max(0, Math.floor((to - from) / DAY_MS));
}

export function BatchInfoScreen(props: { batchId: string }) {
  const { t } = useTranslation(batchesTexts);
  const context = useApiContext();
  const toast = useToast();
  const online = useSyncStatus((status) => status.online);
  const signedIn = useSignedIn();
  const batchId = props.batchId;
  const { document: local, loading: localLoading } = useLocalDocument<LocalBatch>('batches', batchId);
  // The server's views of the batch (dashboard, history) need it there: a batch whose create still
  // waits shows what the tablet holds. A label printed before client ids links the integer id.
  const serverId = typeof local?.serverId === 'number' ? local.serverId : /^\d+$/.test(batchId) ? Number(batchId) : null;
  const places = usePlaces();
  const { document: company } = useCompany(signedIn.companyId);
  const users = (Array.isArray(company?.users) ? company.users : []) as UserLike[];
  const { boxesById } = useBoxes(useMemo(() => idsOf(local?.GridBoxIDs).map(String), [local?.GridBoxIDs]));

  const [answer, setServer] = useState<{ forId: number | null; details: BatchDashboard | null; error: string | null; done: boolean }>({ forId: null, details: null, error: null, done: false });
  // The route's component stays mounted from one batch to the next: an answer about another batch is not this one's.
  const server = answer.forId === serverId ? answer : { forId: serverId, details: null, error: null, done: false };
  useEffect(() => {
    if (!context || !signedIn.companyId || !serverId || !Number.isInteger(serverId)) return undefined;
    let alive = true;
    getBatchDashboard(context, { companyId: signedIn.companyId, batchId: serverId })
      .then((details) => alive && setServer({ forId: serverId, details, error: null, done: true }))
      .catch((error: unknown) => {
        if (!alive) return;
        // No answer (offline, weak signal): the tablet's copy stands in, without an error.
        const message = unanswered(error) ? null : messageOf(error);
        setServer((current) => ({ forId: serverId, details: current.forId === serverId ? current.details : null, error: message, done: true }));
      });
    return () => {
      alive = false;
    };
    // Asked again when the tablet's copy changes (an edit, a pull) or the connection returns.
  }, [context, signedIn.companyId, serverId, local?.UpdatedDateTime, online]);

  const view = useMemo<BatchAtAGlance | null>(() => {
    const serverIsCurrent = server.details && (!local || Date.parse(server.details.UpdatedDateTime) >= Date.parse(local.UpdatedDateTime));
    if (server.details && serverIsCurrent) {
      const details = server.details;
      const grids = new Map(details.grids.map((grid) => [String(grid.GridID), grid.Name]));
      return {
        source: 'server',
        BatchNumber: details.BatchNumber,
        StrainName: details.StrainName,
        BatchStatus: details.BatchStatus,
        Color: details.Color,
        plants: details.plants,
        rooms: details.rooms.map((room) => room.Name),
        grids: details.grids.map((grid) => grid.Name),
        boxes: details.grid_boxes.map((box) => {
          const where = grids.get(String(box.GridID)) ?? gridName(places.gridsById.get(String(box.GridID)));
          return `${where} · ${box.CustomName?.trim() || t('model.columnRow', { x: box.X, y: box.Y })}`;
        }),
        openProblems: details.problems.filter((problem) => !problem.resolved),
        history: details.history,
        dates: { start: details.dates.start_date, end: details.dates.end_date, harvested: details.dates.harvested_at, days: details.dates.days_in_cultivation },
      };
    }
    if (!local) return null;
    const boxes = idsOf(local.GridBoxIDs).map((id) => boxesById.get(String(id)));
    return {
      source: 'tablet',
      BatchNumber: local.BatchNumber,
      StrainName: local.StrainName,
      BatchStatus: local.BatchStatus,
      Color: local.Color,
      plants: { planned: local.NumberOfPlants, positions: boxes.length, culled: boxes.filter((box) => box?.culled).length },
      rooms: roomsOfBatch(local, places.gridsById, boxesById).map((id) => roomName(places.roomsById.get(id))),
      grids: idsOf(local.GridIDs).map((id) => gridName(places.gridsById.get(String(id)))),
      boxes: boxes.map((box) => (box ? boxLabel(box, places.gridsById.get(String(box.gridId)), gridOrderOf(company)) : t('info.boxGone'))),
      openProblems: (local.problems ?? []).filter((problem) => !problem.resolved),
      history: local.history ?? [],
      dates: { start: local.StartDate, end: local.EndDate, harvested: local.HarvestedAt, days: daysGrowing(local.StartDate, local.EndDate) },
    };
    // `t` changes with the language: the names and places are worked out again in it.
  }, [server.details, local, boxesById, places, company, t]);

  const waitingForServer = !local && serverId !== null && online && !server.done;
  const loading = !signedIn.ready || localLoading || waitingForServer;
  const missing = !loading && !view;

  return (
    <Screen
      title={view ? t('info.title', { number: view.BatchNumber }) : t('info.titleUnknown')}
      loading={loading}
      error={server.error && !view ? server.error : null}
      empty={missing && !server.error ? t('info.missing') : null}
      actions={
        view && (
          <Link className="button" to="/dashboard/batches" search={{ batch: batchId }}>
            {t('info.manage')}
          </Link>
        )
      }
    >
      {view && (
        <div className="bt-batch-info">
          <p className="muted bt-source">
            {view.source === 'server' ? t('info.fromServer') : t('info.fromTablet')}
            {server.error && view && <span className="error-text"> {server.error}</span>}
          </p>
          <div className="bt-info-grid">
            <section className="card bt-info-main" aria-label={t('info.summary')}>
              <p className="bt-summary-head">
                {paintable(view.Color) && <span className="bt-color-dot bt-large" style={{ background: paintable(view.Color) ?? undefined }} aria-hidden="true" />}
                <span className="bt-status-chip">{statusName(view.BatchStatus)}</span>
                <span>{view.StrainName || t('noStrain')}</span>
              </p>
              <dl className="bt-facts">
                <div>
                  <dt>{t('facts.plants')}</dt>
                  <dd>{formatNumber(view.plants.planned)}</dd>
                </div>
                <div>
                  <dt>{t('facts.positions')}</dt>
                  <dd>{view.plants.positions}</dd>
                </div>
                <div>
                  <dt>{t('facts.culled')}</dt>
                  <dd>{view.plants.culled}</dd>
                </div>
                <div>
                  <dt>{t('facts.openProblems')}</dt>
                  <dd>{view.openProblems.length}</dd>
                </div>
              </dl>
              <dl className="bt-facts">
                <div>
                  <dt>{t('facts.start')}</dt>
                  <dd>{formatDay(view.dates.start)}</dd>
                </div>
                <div>
                  <dt>{t('facts.end')}</dt>
                  <dd>{formatDay(view.dates.end)}</dd>
                </div>
                <div>
                  <dt>{t('facts.daysGrowing')}</dt>
                  <dd>{view.dates.days ?? '—'}</dd>
                </div>
                {view.dates.harvested && (
                  <div>
                    <dt>{t('facts.harvested')}</dt>
                    <dd>{formatMoment(view.dates.harvested)}</dd>
                  </div>
                )}
              </dl>
            </section>
            <QrLabel batchId={serverId} number={view.BatchNumber} strain={view.StrainName} companyId={signedIn.companyId} online={online} onError={(message) => toast(message, 'danger')} />
          </div>

          <section className="card" aria-labelledby="where-heading">
            <h2 id="where-heading">{t('info.whereHeading')}</h2>
            <dl className="bt-where">
              <div>
                <dt>{t('facts.rooms')}</dt>
                <dd>{view.rooms.length ? view.rooms.join(', ') : t('notInRoom')}</dd>
              </div>
              <div>
                <dt>{t('facts.grids')}</dt>
                <dd>{view.grids.length ? view.grids.join(', ') : t('noneLinked')}</dd>
              </div>
              <div>
                <dt>{t('info.plantPositionsCount', { positions: view.boxes.length })}</dt>
                <dd>
                  {view.boxes.length ? (
                    <ul className="bt-plain-list">
                      {view.boxes.map((box, index) => (
                        <li key={`${box}-${index}`}>{box}</li>
                      ))}
                    </ul>
                  ) : (
                    t('noneLinked')
                  )}
                </dd>
              </div>
            </dl>
          </section>

          <section className="card" aria-labelledby="problems-heading">
            <h2 id="problems-heading">{t('info.problemsHeading')}</h2>
            {view.openProblems.length === 0 ? (
              <p className="muted">{t('info.noOpenProblems')}</p>
            ) : (
              <ul className="bt-problem-list">
                {[...view.openProblems]
                  .sort((a, b) => b.severity - a.severity)
                  .map((problem) => (
                    <ProblemEntry key={String(problem.problem_id)} problem={problem} places={places}>
                      <small className="muted">{t('info.reported', { when: formatMoment(problem.created_at) })}</small>
                    </ProblemEntry>
                  ))}
              </ul>
            )}
          </section>

          <section className="card" aria-labelledby="history-heading">
            <h2 id="history-heading">{t('info.historyHeading')}</h2>
            {view.history.length === 0 ? (
              <p className="muted">{t('info.nothingRecorded')}</p>
            ) : (
              <ol className="bt-timeline">
                {[...view.history]
                  .sort((a, b) => b.created_at.localeCompare(a.created_at))
                  .map((event) => (
                    <HistoryEntry key={String(event.event_id)} event={event} users={users} places={places} />
                  ))}
              </ol>
            )}
          </section>
        </div>
      )}
    </Screen>
  );
}

/**
 * The label to stick on a tray or a room door: batch number, strain and the QR code that opens this
 * screen. Print prints the label alone (batches.css, @media print); Download saves the server's PNG.
 * The QR code comes from the server (batch_qr_url): a batch made offline gets one once it is synced.
 */
function QrLabel(props: { batchId: number | null; number: string; strain: string | null; companyId: number | null; online: boolean; onError: (message: string) => void }) {
  const { t } = useTranslation(batchesTexts);
  const context = useApiContext();
  const [qr, setQr] = useState<{ forId: number; url: string | null; error: string | null } | null>(null);
  const [downloading, setDownloading] = useState(false);
  const { batchId, companyId, online } = props;
  const current = qr && qr.forId === batchId ? qr : null;
  const haveImage = Boolean(current?.url);

  useEffect(() => {
    if (!context || !batchId || !companyId || haveImage) return undefined;
    let alive = true;
    batchQrUrl(context, { batchId, companyId, size: 256 })
      .then((answer) => alive && setQr({ forId: batchId, url: answer?.qr_code_url ?? null, error: null }))
      .catch((error: unknown) => {
        if (!alive) return;
        setQr({ forId: batchId, url: null, error: unanswered(error) ? null : messageOf(error) });
      });
    return () => {
      alive = false;
    };
  }, [context, batchId, companyId, online, haveImage]);

  async function download() {
    if (!context || !batchId) return;
    setDownloading(true);
    try {
      const blob = await batchQr(context, { batchId, companyId });
      if (!blob) return;
      const url = URL.createObjectURL(blob);
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = `batch-${props.number.replace(/[^\w.-]+/g, '_')}-qr.png`;
      anchor.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      props.onError(messageOf(error));
    } finally {
      setDownloading(false);
    }
  }

  const note = !batchId
    ? t('qr.notOnServer')
    : current?.error
      ? current.error
      : !haveImage && !online
        ? t('qr.offline')
        : null;

  return (
    <section className="card bt-qr-card" aria-labelledby="label-heading">
      <h2 id="label-heading">{t('qr.heading')}</h2>
      <Label number={props.number} strain={props.strain} testId="qr-label">
        {current?.url ? <img src={current.url} alt={t('qr.alt', { number: props.number })} width={192} height={192} /> : <div className="bt-qr-placeholder">{note ?? t('qr.loading')}</div>}
      </Label>
      {current?.url &&
        createPortal(
          <div className="bt-print-root" aria-hidden="true">
            <Label number={props.number} strain={props.strain}>
              <img src={current.url} alt="" width={192} height={192} />
            </Label>
          </div>,
          document.body,
        )}
      {note && current?.url && <p className="muted">{note}</p>}
      <div className="bt-row-actions">
        <button type="button" className="button primary" disabled={!haveImage} onClick={() => window.print()}>
          {t('qr.print')}
        </button>
        <button type="button" className="button" disabled={!batchId || downloading || !online} onClick={() => void download()}>
          {downloading ? t('qr.downloading') : t('qr.download')}
        </button>
      </div>
    </section>
  );
}

function Label(props: { number: string; strain: string | null; testId?: string; children: ReactNode }) {
  return (
    <div className="bt-qr-label" data-testid={props.testId}>
      <p className="bt-qr-number">{props.number}</p>
      <p className="bt-qr-strain">{props.strain || '\u00a0'}</p>
      {props.children}
    </div>
  );
}
