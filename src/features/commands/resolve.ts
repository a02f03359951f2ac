/**
 * From a parsed command to the records it acts on (issue 18): the names the grower said, matched to
 * the local records (any case), and box numbers to the grid's boxes as the room numbers them
 * (common/grid-order.ts `boxNumber`, the company's grid order). What cannot be resolved (a grid that is
 * not there, box 30 of a 24-box grid, an unknown batch) is said on the action's line of the confirm
 * list before anything runs; such a command does not run at all, so a grower never gets half of what
 * they asked for by surprise.
 */
import type { BoxesOfGrid, CommandAction } from '../../../common/commands/actions';
import type * as CommandPhrasesModule from '../../../common/commands/phrases';
import type { ApiContext } from '../../api/context';
import { i18next } from '../../i18n/i18n';
import { type BatchDoc, type BoxDoc, type GridDoc, gridSize, type RoomDoc, numberOfBox } from '../rooms/model';
import { findLocal } from '../../db/local-store';
import { type CommandPlaces, type TemplateDoc } from './places';
import { commandsTexts } from './texts';
import { describeAction, listOfNumbers } from './words';

/** Why an action cannot run, in the reader's language (locales/*.json `unresolved`). */
const m = i18next.getFixedT(null, commandsTexts, 'unresolved');

/** Where the command was said: the room and the grid on screen (null on the dashboard, or when the room shows several grids and none is picked). */
export interface CommandScene {
  roomId: string | null;
  gridId: string | null;
}

/** A box of a grid, by its local key and its number in the room. */
export interface NumberedBox {
  id: string;
  number: number;
}

export interface GridBoxes {
  grid: GridDoc;
  boxes: NumberedBox[];
}

/** An action with the records it acts on. */
export type ResolvedAction =
  | ({ kind: 'cull'; culled: boolean } & GridBoxes)
  | { kind: 'mark-room'; room: RoomDoc }
  | { kind: 'mark-grid'; grid: GridDoc }
  | ({ kind: 'problem'; problem: string; severity: number; notes: string | null } & GridBoxes)
  | { kind: 'batch-status'; batch: BatchDoc; status: string }
  | { kind: 'harvest'; batch: BatchDoc }
  | ({ kind: 'fill-form'; form: TemplateDoc } & GridBoxes);

/**
 * One line of the confirm list: the action as parsed, with the names the screen supplied filled in
 * (`action`, what save_command keeps: "the grid on screen" means nothing once the grower has left it),
 * its words, and either what it acts on or why it cannot run.
 */
export type ActionPlan = { action: CommandAction; words: string } & ({ resolved: ResolvedAction; problem: null } | { resolved: null; problem: string });

const same = (a: unknown, b: string) => typeof a === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();
const nameOf = (document: { Name?: unknown }) => (typeof document.Name === 'string' ? document.Name : '');

class Unresolved extends Error {}
const refuse = (message: string): never => {
  throw new Unresolved(message);
};

/**
 * The parser's examples and the names they fall back on (common/commands/phrases.ts), loaded with the
 * first command planned: the parser has loaded them already (CommandBar.tsx), and the bar's own chunk
 * stays without them.
 */
let phrases: Pick<typeof CommandPhrasesModule, 'COMMAND_PHRASES' | 'EXAMPLE_NAME_FALLBACKS'> | null = null;

/**
 * The example a "which grid?" answer gives: a command in the company's command language (the one the
 * parser reads), with a grid of the company's named.
 */
function gridExample(places: CommandPlaces): string {
  const grid = places.grids.map(nameOf).find(Boolean);
  if (!phrases) return `cull box 12 in ${grid ?? 'Bench A'}`;
  return phrases.COMMAND_PHRASES[places.language].examples.cull({ ...phrases.EXAMPLE_NAME_FALLBACKS, grid: grid ?? phrases.EXAMPLE_NAME_FALLBACKS.grid });
}
function roomExample(places: CommandPlaces): string {
  const room = places.rooms.map(nameOf).find(Boolean);
  if (!phrases) return `mark ${room ?? 'Flower 1'} scanned`;
  return phrases.COMMAND_PHRASES[places.language].examples['mark-scanned']({ ...phrases.EXAMPLE_NAME_FALLBACKS, room: room ?? phrases.EXAMPLE_NAME_FALLBACKS.room });
}

/** The grid a command names (preferring one in the room on screen when names repeat), or the grid on screen. */
function gridOf(name: string | null, scene: CommandScene, places: CommandPlaces): GridDoc {
  if (name === null) {
    const onScreen = scene.gridId === null ? undefined : places.grids.find((grid) => grid.id === scene.gridId);
    if (onScreen) return onScreen;
    const inRoom = scene.roomId === null ? [] : places.grids.filter((grid) => grid.roomId === scene.roomId);
    return inRoom.length === 1 ? inRoom[0]! : refuse(m('whichGrid', { example: gridExample(places) }));
  }
  const named = places.grids.filter((grid) => same(grid.Name, name));
  if (named.length === 0) refuse(m('noGrid', { name }));
  const here = named.filter((grid) => grid.roomId === scene.roomId);
  const chosen = here.length === 1 ? here : named;
  return chosen.length === 1 ? chosen[0]! : refuse(m('gridNameTwice', { name, total: chosen.length }));
}

function roomOf(name: string | null, scene: CommandScene, places: CommandPlaces): RoomDoc {
  if (name === null) {
    const onScreen = scene.roomId === null ? undefined : places.rooms.find((room) => room.id === scene.roomId);
    return onScreen ?? refuse(m('whichRoom', { example: roomExample(places) }));
  }
  const named = places.rooms.filter((room) => same(room.Name, name));
  if (named.length === 0) refuse(m('noRoom', { name }));
  return named.length === 1 ? named[0]! : refuse(m('roomNameTwice', { name, total: named.length }));
}

const batchOf = (name: string, places: CommandPlaces): BatchDoc => places.batches.find((batch) => same(batch.BatchNumber, name)) ?? refuse(m('noBatch', { name }));

/** The boxes of a grid by their numbers in the room; numbers beyond the grid, or boxes the tablet lacks, refuse. */
async function boxesOf(context: Pick<ApiContext, 'database'>, target: BoxesOfGrid, scene: CommandScene, places: CommandPlaces): Promise<GridBoxes> {
  const grid = gridOf(target.grid, scene, places);
  const numbers = [...new Set(target.boxes)].sort((a, b) => a - b);
  if (numbers.length === 0) refuse(m('noBoxes'));
  const boxes = (await findLocal(context, 'grid_boxes', { gridId: grid.id })) as BoxDoc[];
  const { nx, ny } = gridSize(grid, boxes);
  const beyond = numbers.filter((number) => !Number.isInteger(number) || number < 1 || number > nx * ny);
  if (beyond.length > 0) {
    refuse(m('beyondGrid', { grid: nameOf(grid), size: m('gridSize', { count: nx * ny }), missing: m('noSuchBoxes', { count: beyond.length, numbers: listOfNumbers(beyond) }) }));
  }
  const byNumber = new Map(boxes.map((box) => [numberOfBox(places.order, box, nx, ny), box.id]));
  const missing = numbers.filter((number) => !byNumber.has(number));
  if (missing.length > 0) refuse(m('boxNotOnTablet', { grid: nameOf(grid), count: missing.length, numbers: listOfNumbers(missing) }));
  return { grid, boxes: numbers.map((number) => ({ id: byNumber.get(number)!, number })) };
}

async function resolveAction(context: Pick<ApiContext, 'database'>, action: CommandAction, scene: CommandScene, places: CommandPlaces): Promise<ResolvedAction> {
  switch (action.kind) {
    case 'cull':
      return { kind: 'cull', culled: action.culled, ...(await boxesOf(context, action, scene, places)) };
    case 'mark-scanned':
      return action.target === 'room' ? { kind: 'mark-room', room: roomOf(action.name, scene, places) } : { kind: 'mark-grid', grid: gridOf(action.name, scene, places) };
    case 'problem': {
      // Loaded here: the problems' messages carry the catalogue, which the bar loads with its first command (places.ts).
      const { SEVERITY_MAX, SEVERITY_MIN } = await import('../../../common/messages/problems');
      if (!Number.isInteger(action.severity) || action.severity < SEVERITY_MIN || action.severity > SEVERITY_MAX) refuse(m('severity', { severity: action.severity }));
      return { kind: 'problem', problem: action.problem, severity: action.severity, notes: action.notes, ...(await boxesOf(context, action, scene, places)) };
    }
    case 'batch-status': {
      const batch = batchOf(action.batch, places);
      const status = places.statuses.find((known) => same(known, action.status)) ?? refuse(m('noStatus', { name: action.status }));
      return { kind: 'batch-status', batch, status };
    }
    case 'harvest': {
      const batch = batchOf(action.batch, places);
      if (batch.HarvestedAt) refuse(m('alreadyHarvested', { batch: batch.BatchNumber ?? action.batch }));
      return { kind: 'harvest', batch };
    }
    case 'fill-form': {
      const form = places.forms.find((template) => same(template.TemplateName, action.form)) ?? refuse(m('noForm', { name: action.form }));
      return { kind: 'fill-form', form, ...(await boxesOf(context, action, scene, places)) };
    }
  }
}

/**
 * The action with every name as the company writes it (the tablet's records), the grid or room on
 * screen included where the grower named none (see ActionPlan).
 */
function named(action: CommandAction, resolved: ResolvedAction): CommandAction {
  const spelled = (name: string | null | undefined, said: string) => (name ? name : said);
  switch (resolved.kind) {
    case 'cull':
    case 'problem':
    case 'fill-form': {
      const grid = nameOf(resolved.grid) || ('grid' in action ? action.grid : null);
      if (action.kind === 'fill-form' && resolved.kind === 'fill-form') return { ...action, grid, form: spelled(resolved.form.TemplateName, action.form) };
      return 'grid' in action ? { ...action, grid } : action;
    }
    case 'mark-room':
      return action.kind === 'mark-scanned' ? { ...action, name: nameOf(resolved.room) || action.name } : action;
    case 'mark-grid':
      return action.kind === 'mark-scanned' ? { ...action, name: nameOf(resolved.grid) || action.name } : action;
    case 'batch-status':
      return action.kind === 'batch-status' ? { ...action, batch: spelled(resolved.batch.BatchNumber, action.batch), status: resolved.status } : action;
    case 'harvest':
      return action.kind === 'harvest' ? { ...action, batch: spelled(resolved.batch.BatchNumber, action.batch) } : action;
  }
}

/**
 * The confirm list of a parsed command: each action resolved against the local records, or the reason
 * it cannot be. A command opens one form at most (opening it leaves the screen).
 */
export async function planCommand(context: Pick<ApiContext, 'database'>, actions: readonly CommandAction[], scene: CommandScene, places: CommandPlaces): Promise<ActionPlan[]> {
  phrases ??= await import('../../../common/commands/phrases');
  const plans: ActionPlan[] = [];
  let formOpened = false;
  for (const parsed of actions) {
    try {
      if (parsed.kind === 'fill-form' && formOpened) refuse(m('oneFormAtATime'));
      const resolved = await resolveAction(context, parsed, scene, places);
      formOpened ||= resolved.kind === 'fill-form';
      const action = named(parsed, resolved);
      plans.push({ action, words: describeAction(action), resolved, problem: null });
    } catch (error) {
      if (!(error instanceof Unresolved)) throw error;
      plans.push({ action: parsed, words: describeAction(parsed), resolved: null, problem: error.message });
    }
  }
  return plans;
}

/** Whether every action of the list can run. */
export const runnable = (plans: readonly ActionPlan[]): plans is Array<ActionPlan & { resolved: ResolvedAction }> => plans.length > 0 && plans.every((plan) => plan.resolved !== null);
