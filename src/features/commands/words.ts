/**
 * The words an action is shown in on the confirm list ("Cull boxes 4 and 5 in Bench A"), in the
 * reader's language (locales/*.json `actions`). What the grower said stays as said (names, problems,
 * notes); a built-in batch status reads as the batch screens say it.
 */
import type { CommandAction } from '../../../common/commands/actions';
import { formatNumber } from '../../i18n/format';
import { i18next } from '../../i18n/i18n';
import { statusName } from '../batches/texts';
import { commandsTexts } from './texts';

/** "4", "4 and 5", "1, 3 and 5 to 9": runs of three or more as a range, as growers count along a bench. */
export function listOfNumbers(numbers: readonly number[]): string {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let start = 0; start < sorted.length; ) {
    let end = start;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end += 1;
    if (end - start >= 2) parts.push(i18next.t('numbers.range', { ns: commandsTexts, from: formatNumber(sorted[start]!), to: formatNumber(sorted[end]!) }));
    else for (let index = start; index <= end; index += 1) parts.push(formatNumber(sorted[index]!));
    start = end + 1;
  }
  return parts.length <= 1 ? (parts[0] ?? '') : i18next.t('numbers.last', { ns: commandsTexts, rest: parts.slice(0, -1).join(', '), last: parts[parts.length - 1]! });
}

/** "box 12" / "boxes 4 and 5" / "boxes 4 to 9". */
export function boxesInWords(numbers: readonly number[]): string {
  return i18next.t('boxes', { ns: commandsTexts, count: new Set(numbers).size, numbers: listOfNumbers(numbers) });
}

/**
 * The names an action leaves to the screen (the grid or room on screen), as the tablet resolved them;
 * null where it could not, and the words say so.
 */
export interface NamesOnScreen {
  grid?: string | null;
  room?: string | null;
}

/** An action in words, as the confirm list shows it ("Cull boxes 4 and 5 in Bench A"). */
export function describeAction(action: CommandAction, onScreen: NamesOnScreen = {}): string {
  const t = i18next.getFixedT(null, commandsTexts, 'actions');
  const where = (grid: string | null) => grid ?? onScreen.grid ?? t('gridOnScreen');
  switch (action.kind) {
    case 'cull':
      return t(action.culled ? 'cull' : 'uncull', { boxes: boxesInWords(action.boxes), grid: where(action.grid) });
    case 'mark-scanned':
      return action.target === 'room' ? t('markRoom', { name: action.name ?? onScreen.room ?? t('onScreen') }) : t('markGrid', { name: action.name ?? onScreen.grid ?? t('onScreen') });
    case 'problem': {
      const values = { problem: action.problem, severity: action.severity, boxes: boxesInWords(action.boxes), grid: where(action.grid) };
      return action.notes ? t('problemNoting', { ...values, notes: action.notes }) : t('problem', values);
    }
    case 'batch-status':
      return t('batchStatus', { batch: action.batch, status: statusName(action.status) });
    case 'harvest':
      return t('harvest', { batch: action.batch });
    case 'fill-form':
      return t('fillForm', { form: action.form, boxes: boxesInWords(action.boxes), grid: where(action.grid) });
  }
}
