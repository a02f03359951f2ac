/**
 * What a command is matched against: the company's rooms, grids, batches, forms, problem names and
 * batch statuses as this tablet holds them, read from the local store when a command is read (so it
 * works offline, and a room or status made a moment ago counts), with the same selectors the screens
 * use (rooms and grids as batches/hooks.ts `usePlaces`, batches and forms by company). Read once per
 * command rather than kept live: the bar sits on the dashboard and the room, whose first paint must not
 * pay for subscriptions it only needs when a grower types.
 */
import { BUILT_IN_BATCH_STATUSES } from '../../../common/batch-statuses';
import { COMMAND_LANGUAGES, type CommandLanguage, type CommandVocabulary } from '../../../common/commands/actions';
import type { GridOrder } from '../../../common/messages/settings';
import type { FormTemplateRecord } from '../../../common/schemas/forms';
import type { ApiContext } from '../../api/context';
import { findLocal } from '../../db/local-store';
import type { LocalDocument } from '../../db/schemas';
import { type BatchDoc, type CompanyDoc, type GridDoc, gridOrderOf, type RoomDoc } from '../rooms/model';

export type TemplateDoc = LocalDocument & Partial<FormTemplateRecord>;

/** The company's document as the command bar reads it: its language, grid order, statuses and problem colours. */
export type CommandCompanyDoc = CompanyDoc & {
  settings?: (CompanyDoc['settings'] & { language?: string | null }) | null;
  custom_batch_statuses?: Array<{ status_name?: unknown }> | null;
  problem_color_mappings?: Array<{ problem?: unknown }> | null;
};

export interface CommandPlaces {
  rooms: RoomDoc[];
  grids: GridDoc[];
  batches: BatchDoc[];
  forms: TemplateDoc[];
  /** Problem names: the catalogue's, then the company's own (its problem colours, and types it has recorded). */
  problems: string[];
  /** Batch statuses: the built-in ones, then the company's own. */
  statuses: string[];
  /** How the company numbers a grid's boxes (common/grid-order.ts). */
  order: GridOrder;
  language: CommandLanguage;
}

/** The speech recogniser's language for each command language. */
export const SPEECH_LANGUAGE: Record<CommandLanguage, string> = { en: 'en-US', es: 'es-ES', nl: 'nl-NL' };

/** The company's language as a command language: its primary subtag ("es-ES" → "es"), else English. */
export function commandLanguageOf(company: CommandCompanyDoc | null): CommandLanguage {
  const code = String(company?.settings?.language ?? '')
    .trim()
    .toLowerCase()
    .split(/[-_]/)[0];
  return (COMMAND_LANGUAGES as readonly string[]).includes(code ?? '') ? (code as CommandLanguage) : 'en';
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** Names without repeats (any case), the first spelling kept, empty ones left out. */
function distinctNames(names: Iterable<string>): string[] {
  const seen = new Map<string, string>();
  for (const name of names) if (name && !seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  return [...seen.values()];
}

/** Reads what the tablet holds of the company for one command (see the header). */
export async function readCommandPlaces(context: Pick<ApiContext, 'database' | 'store'>, companyId: number): Promise<CommandPlaces> {
  // The catalogue is some 140 kB: it loads with the first command read, not with the bar.
  const [company, rooms, grids, batches, forms, recorded, catalogue] = await Promise.all([
    context.store.get('company', String(companyId)) as Promise<CommandCompanyDoc | null>,
    findLocal(context, 'rooms') as Promise<RoomDoc[]>,
    findLocal(context, 'grids') as Promise<GridDoc[]>,
    findLocal(context, 'batches', { CompanyID: companyId }) as Promise<BatchDoc[]>,
    findLocal(context, 'form_templates', { CompanyID: companyId }) as Promise<TemplateDoc[]>,
    findLocal(context, 'plant_problems'),
    import('../../../common/plant-problems').then((module) => module.CATALOGUE),
  ]);
  const problems = distinctNames([
    ...catalogue.map((problem) => problem.name),
    ...(company?.problem_color_mappings ?? []).map((mapping) => text(mapping.problem)),
    ...batches.flatMap((batch) => (batch.problems ?? []).map((problem) => text(problem.problem_type))),
    ...recorded.map((problem) => text(problem.problem_type)),
  ]);
  const statuses = distinctNames([...BUILT_IN_BATCH_STATUSES, ...(company?.custom_batch_statuses ?? []).map((status) => text(status.status_name))]);
  return { rooms, grids, batches, forms, problems, statuses, order: gridOrderOf(company), language: commandLanguageOf(company) };
}

/** The names the parser matches what was said against, each as the company wrote it. */
export function vocabularyOf(places: CommandPlaces): CommandVocabulary {
  return {
    rooms: distinctNames(places.rooms.map((room) => text(room.Name))),
    grids: distinctNames(places.grids.map((grid) => text(grid.Name))),
    batches: distinctNames(places.batches.map((batch) => text(batch.BatchNumber))),
    forms: distinctNames(places.forms.map((form) => text(form.TemplateName))),
    problems: places.problems,
    statuses: places.statuses,
  };
}
