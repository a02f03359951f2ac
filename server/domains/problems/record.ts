/**
 * Recording plant problems on a grid box (issue 14 "Problems on plants"): the one insert and audit trail
 * of a problem seen, whether recorded from the box panel (routes.ts create_gridbox_problem), named by
 * a scouting form's answer (forms/responses.ts) or confirmed from a scan's finding (scans/sessions.ts).
 * The caller has found the box live and the company's.
 */
import type { Kysely } from 'kysely';
import { auditTitles } from '../../../common/messages/audit-titles';
import { problemMessages as m } from '../../../common/messages/problems';
import { catalogueProblem, catalogueProblemNamed } from '../../../common/plant-problems';
import type { DB } from '../../db/schema';
import { type Actor, writer } from '../../db/writes';
import { badRequest } from '../../http/errors';
import { recordAudit } from '../audit/record';
import { notifyProblemsRecorded } from '../automations/triggers';
import type { ProblemAction } from '../../../common/problem-statuses';
import type { ScanType } from '../../../common/schemas/scans';
import { type PlantProblem, problemQueries, type ProblemReach } from './queries';

/**
 * The problem's catalogue entry: the slug sent (must exist), else the entry the type names, else none
 * (a company's own problem type).
 */
export function problemSlugOf(problemType: string, problemSlug?: string): string | null {
  if (problemSlug === undefined) return catalogueProblemNamed(problemType)?.slug ?? null;
  const entry = catalogueProblem(problemSlug);
  if (!entry) throw badRequest(m.unknownSlug(problemSlug));
  return entry.slug;
}

/** The box a problem is seen on: its place (company, grid, room) and what the audit trail calls it. */
export interface ProblemBox {
  id: number;
  company_id: number;
  grid_id: number;
  room_id: number;
  x: number;
  y: number;
  custom_name: string | null;
}

/** One problem seen. */
export interface SeenProblem {
  problemType: string;
  /** The catalogue entry (problemSlugOf), null for the company's own type. */
  problemSlug: string | null;
  severity: number;
  /** A plant of the box (one of its sub-gridboxes); null: the box as a whole. */
  subGridboxId?: number | null;
  notes?: string | null;
  imageName?: string | null;
  /** The tablet's client id of the record, else the server makes one. */
  clientId?: string;
}

/** Who saw the problems, when, and how they were recorded. */
export interface Sighting {
  userId: number;
  /** When they were seen: the act's time, or a form's filled-in time. */
  observedAt: Date;
  source: 'manual' | 'form' | 'scan';
  /** The form response whose answer named them (source 'form'). */
  formResponseId?: number | null;
  /** The scan session whose photo showed them (source 'scan'), named in their audit events. */
  scanId?: number | null;
  /** Where they came from, as the audit trail says it: a form (its name), or a scan (its type and model); none for the box panel. */
  via?: { form: string } | { scanType: ScanType; model: string };
}

/** A box label for the audit trail: its name, else its position. */
const boxLabel = (box: ProblemBox) => box.custom_name ?? `${box.x},${box.y}`;

/** The audit title of a problem recorded on a box (or a plant of it), and where it came from. */
function recordedTitle(problem: SeenProblem, box: ProblemBox, via: Sighting['via']): string {
  const onPlant = problem.subGridboxId != null;
  const seen = [problem.problemType, problem.severity, boxLabel(box)] as const;
  if (via === undefined) return onPlant ? auditTitles.recordedProblem.onPlantOfBox(...seen) : auditTitles.recordedProblem.onBox(...seen);
  if ('form' in via) return onPlant ? auditTitles.recordedProblemFromForm.onPlantOfBox(...seen, via.form) : auditTitles.recordedProblemFromForm.onBox(...seen, via.form);
  const fromScan = auditTitles.scans[via.scanType].recordedProblem;
  return onPlant ? fromScan.onPlantOfBox(...seen, via.model) : fromScan.onBox(...seen, via.model);
}

/**
 * Records problems seen on a box, unresolved, in one statement, and audits each under the box (and the
 * form response that named it); answers the rows, in the order given.
 */
export async function recordBoxProblems(db: Kysely<DB>, actor: Actor, box: ProblemBox, problems: readonly SeenProblem[], sighting: Sighting): Promise<PlantProblem[]> {
  if (problems.length === 0) return [];
  const rows = await writer(db, actor).insertMany(
    'plant_problems',
    problems.map((problem) => ({
      client_id: problem.clientId,
      company_id: box.company_id,
      room_id: box.room_id,
      grid_id: box.grid_id,
      grid_box_id: box.id,
      sub_gridbox_id: problem.subGridboxId ?? null,
      problem_type: problem.problemType,
      problem_slug: problem.problemSlug,
      severity: problem.severity,
      notes: problem.notes ?? null,
      image_name: problem.imageName ?? null,
      source: sighting.source,
      form_response_id: sighting.formResponseId ?? null,
      user_id: sighting.userId,
      observed_at: sighting.observedAt,
      status_at: null,
      status_by: null,
    })),
  );
  for (const [index, row] of rows.entries()) {
    const problem = problems[index]!;
    await recordAudit(db, actor, {
      title: recordedTitle(problem, box, sighting.via),
      roomId: box.room_id,
      gridBoxId: box.id,
      responseId: sighting.formResponseId ?? null,
      details: { problem_id: row.id, ...(problem.imageName ? { file: problem.imageName } : {}), ...(sighting.scanId ? { scan_id: sighting.scanId } : {}) },
    });
  }
  await notifyProblemsRecorded(db, rows);
  return rows;
}

/**
 * The place an action on problems applied to, as its audit title names it: one problem (its type, and
 * its box's id), or a room's or a grid's problems (of the reach's type, when it names one).
 */
export type ActedOn = { box: number; problemType: string } | { room: string } | { grid: string };

function actedTitle(action: ProblemAction, count: number, problemType: string | undefined, at: ActedOn): string {
  const titles = auditTitles.actedOnProblems[action];
  if ('box' in at) return titles.onBox(count, at.problemType, at.box);
  if ('room' in at) return problemType === undefined ? titles.inRoom(count, at.room) : titles.ofTypeInRoom(count, problemType, at.room);
  return problemType === undefined ? titles.inGrid(count, at.grid) : titles.ofTypeInGrid(count, problemType, at.grid);
}

/**
 * Applies an action to the problems in reach (ACTION_APPLIES_TO says which) and, when something
 * changed, audits it under the place acted on (`at`); answers the problems changed.
 */
export async function actOnProblems(
  db: Kysely<DB>,
  actor: Actor,
  action: ProblemAction,
  reach: ProblemReach,
  place: { roomId: number | null; gridBoxId?: number; at: ActedOn },
) {
  const changed = await problemQueries.setStatus(db, actor, action, reach);
  if (changed.length > 0) {
    await recordAudit(db, actor, {
      title: actedTitle(action, changed.length, reach.problemType, place.at),
      roomId: place.roomId,
      gridBoxId: place.gridBoxId ?? null,
      details: { action, problem_ids: changed.map((problem) => problem.id) },
    });
  }
  return changed;
}
