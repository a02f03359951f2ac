/**
 * Every text the command bar shows of its own, in one table (client-only: the server never says these;
 * what the parser cannot read it says itself, in the company's language, common/commands/parse.ts), and
 * the words an action is shown in on the confirm list ("Cull boxes 4 and 5 in Bench A").
 */
import type { CommandAction } from '../../../common/commands/actions';
import { thousands } from '../../../common/messages/numbers';

export const commandBarMessages = {
  title: 'Command',
  label: 'Type a command',
  hint: 'For example “cull box 12 in Bench A”, “spider mites severity 3 on boxes 4 to 9”, “batch B-001 to Flowering”, “harvest B-001” or “fill Weekly scouting for box 12”.',
  read: 'Read command',
  reading: 'Reading the command…',
  speak: 'Speak',
  stopListening: 'Stop listening',
  listening: 'Listening… say the command.',
  empty: 'Type a command first, or tap Speak and say it.',
  notUnderstood: 'The command was not understood.',
  tryExample: (example: string) => `Try, for example: “${example}”.`,
  confirmHeading: 'Run these actions?',
  fixFirst: 'Some actions cannot run as said: change the command and read it again.',
  run: 'Run',
  running: 'Running…',
  cancel: 'Cancel',
  resultsHeading: 'Command run',
  newCommand: 'New command',
  done: 'Done',
  queuedOffline: 'Queued: sent when the tablet is back online',
  sending: 'Saved, sending to the server',
  failed: (message: string) => `Failed: ${message}`,
  opensForm: 'Opens the form',
  commandSaved: 'Command kept with its actions.',
  commandQueued: 'Command kept on this tablet: it reaches the server when the connection returns.',
  commandNotSaved: (message: string) => `The command itself could not be kept: ${message}`,
  readerNotSaved: 'The command reader is not saved on this tablet yet: it loads when the connection returns. Meanwhile use the screen’s own buttons.',
  storeUnreadable: (reason: string) => `This tablet’s copy of the company could not be read: ${reason}`,
  speechRefused: 'The microphone may not be used: allow it for this site in the browser’s settings, or type the command.',
  speechOffline: 'Listening needs a connection on this browser: type the command instead.',
  speechNothingHeard: 'Nothing was heard. Tap Speak and say the command again, or type it.',
  speechFailed: (reason: string) => `Listening stopped (${reason}). Type the command instead.`,
  // What stops an action before it runs (resolve.ts).
  whichGrid: (example: string) => `Which grid? Name it, for example “${example}”.`,
  whichRoom: (example: string) => `Which room? Name it, for example “${example}”.`,
  noGrid: (name: string) => `There is no grid named ${name} on this tablet.`,
  noRoom: (name: string) => `There is no room named ${name} on this tablet.`,
  gridNameTwice: (name: string, count: number) => `${thousands(count)} grids are named ${name}: say the command in the room of the one you mean.`,
  roomNameTwice: (name: string, count: number) => `${thousands(count)} rooms are named ${name}: mark it scanned on its own screen.`,
  noBoxes: 'Say which boxes, for example “box 12” or “boxes 4 to 9”.',
  beyondGrid: (grid: string, size: number, numbers: readonly number[]) =>
    `${grid} has ${thousands(size)} ${size === 1 ? 'box' : 'boxes'}: there ${numbers.length === 1 ? 'is no box' : 'are no boxes'} ${listOfNumbers(numbers)}.`,
  boxNotOnTablet: (grid: string, numbers: readonly number[]) => `${numbers.length === 1 ? 'Box' : 'Boxes'} ${listOfNumbers(numbers)} of ${grid} ${numbers.length === 1 ? 'is' : 'are'} not on this tablet yet.`,
  noBatch: (name: string) => `There is no batch ${name} on this tablet.`,
  noStatus: (name: string) => `${name} is not a batch status of this company.`,
  alreadyHarvested: (batch: string) => `Batch ${batch} is harvested already.`,
  noForm: (name: string) => `There is no form named ${name} on this tablet.`,
  oneFormAtATime: 'One form at a time: fill the first, then say this one again.',
  severity: (severity: number) => `Severity must be a number from 1 to 5 (heard ${thousands(severity)}).`,
} as const;

/** "4", "4 and 5", "1, 3 and 5 to 9": runs of three or more as a range, as growers count along a bench. */
export function listOfNumbers(numbers: readonly number[]): string {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let start = 0; start < sorted.length; ) {
    let end = start;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end += 1;
    if (end - start >= 2) parts.push(`${thousands(sorted[start]!)} to ${thousands(sorted[end]!)}`);
    else for (let index = start; index <= end; index += 1) parts.push(thousands(sorted[index]!));
    start = end + 1;
  }
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]!}`;
}

/** "box 12" / "boxes 4 and 5" / "boxes 4 to 9". */
export function boxesInWords(numbers: readonly number[]): string {
  const count = new Set(numbers).size;
  return `${count === 1 ? 'box' : 'boxes'} ${listOfNumbers(numbers)}`;
}

/**
 * The names an action leaves to the screen (the grid or room on screen), as the tablet resolved them;
 * null where it could not, and the words say so.
 */
export interface NamesOnScreen {
  grid?: string | null;
  room?: string | null;
}

const where = (grid: string | null, onScreen: NamesOnScreen) => grid ?? onScreen.grid ?? 'the grid on screen';

/** An action in words, as the confirm list shows it ("Cull boxes 4 and 5 in Bench A"). */
export function describeAction(action: CommandAction, onScreen: NamesOnScreen = {}): string {
  switch (action.kind) {
    case 'cull':
      return `${action.culled ? 'Cull' : 'Un-cull'} ${boxesInWords(action.boxes)} in ${where(action.grid, onScreen)}`;
    case 'mark-scanned':
      return action.target === 'room' ? `Mark room ${action.name ?? onScreen.room ?? 'on screen'} scanned` : `Mark grid ${action.name ?? onScreen.grid ?? 'on screen'} scanned`;
    case 'problem':
      return `Record ${action.problem} (severity ${thousands(action.severity)}) on ${boxesInWords(action.boxes)} in ${where(action.grid, onScreen)}${action.notes ? `, noting “${action.notes}”` : ''}`;
    case 'batch-status':
      return `Move batch ${action.batch} to ${action.status}`;
    case 'harvest':
      return `Harvest batch ${action.batch}`;
    case 'fill-form':
      return `Fill ${action.form} for ${boxesInWords(action.boxes)} in ${where(action.grid, onScreen)}`;
  }
}
