/**
 * The command bar's actions (issue 18; spec part 2 "AI chat: command text and a parsed data list"): what
 * a typed or spoken command such as "cull box 12 in Bench A" means, as the tablet's own parser reads it
 * (parse.ts; no outside service, so it works offline) and before anything is run. The tablet shows
 * these as a list to confirm, then runs each through the same domain functions as the screens; the
 * list is also the "parsed data" that `save_command` keeps beside the command's text.
 *
 * Places, batches, forms and problems are named as the grower said them and matched against the names
 * the tablet holds (the vocabulary): the parser returns the name as it is known ("Bench A", not
 * "bench a"), and the screen resolves names to records. Boxes are numbered as the room numbers them
 * (common/grid-order.ts `boxNumber`, from 1), in the grid named, or in the grid on screen when none is.
 */

/** The languages a command may be written in: the interface's languages (issue 18). */
export const COMMAND_LANGUAGES = ['en', 'es', 'nl'] as const;
export type CommandLanguage = (typeof COMMAND_LANGUAGES)[number];

/** Boxes of one grid, by their numbers in the room (sorted, no repeats). `grid: null`: the grid on screen. */
export interface BoxesOfGrid {
  boxes: number[];
  grid: string | null;
}

export type CommandAction =
  /** Cull the boxes' plants ("cull box 12 in Bench A"), or take the cull back (`culled: false`, "uncull box 12"). */
  | ({ kind: 'cull'; culled: boolean } & BoxesOfGrid)
  /** Mark a room ("mark Flower 1 scanned") or a grid ("mark grid Bench A scanned") as scanned; `name: null`, the room on screen. */
  | { kind: 'mark-scanned'; target: 'room' | 'grid'; name: string | null }
  /** Report a problem on boxes ("spider mites severity 3 on boxes 4 to 9 in Bench A"); severity 1–5. */
  | ({ kind: 'problem'; problem: string; severity: number; notes: string | null } & BoxesOfGrid)
  /** Move a batch to a status ("batch B-001 to Flowering"): a built-in status or the company's own. */
  | { kind: 'batch-status'; batch: string; status: string }
  /** Harvest a batch ("harvest B-001"). */
  | { kind: 'harvest'; batch: string }
  /** Open a form to fill for boxes ("fill Weekly scouting for box 12"). */
  | ({ kind: 'fill-form'; form: string } & BoxesOfGrid);

export type CommandActionKind = CommandAction['kind'];

/** The names the tablet holds, to match what was said against (each as the company wrote it). */
export interface CommandVocabulary {
  rooms: readonly string[];
  grids: readonly string[];
  batches: readonly string[];
  forms: readonly string[];
  /** Problem names: the catalogue's and the company's own. */
  problems: readonly string[];
  /** Batch statuses: the built-in ones (common/batch-statuses.ts) and the company's own. */
  statuses: readonly string[];
}

/**
 * What the parser made of a command: the actions in the order said ("cull box 3 and harvest B-001": two),
 * or, when it cannot read it, a message saying what it could not read and an example of a command it can.
 */
export type ParsedCommand = { ok: true; actions: CommandAction[] } | { ok: false; message: string; example: string };
