/**
 * The cameras' texts (src/i18n): English bundled here, Spanish and Dutch loaded as needed. Also a
 * camera's kind and an interval as the reader reads them.
 */
import { CAMERA_KINDS, type CameraKind } from '../../../common/messages/cameras';
import { formatNumber } from '../../i18n/format';
import { i18next, registerTexts } from '../../i18n/i18n';
import en from './locales/en.json';

export const camerasTexts = registerTexts('cameras', en);

/** A camera's kind ("IP camera", "Phone (device link)") in the reader's language. */
export const kindName = (kind: CameraKind): string => i18next.t(`kinds.${kind}`, { ns: camerasTexts });

/** The kinds' names, for a choice. */
export const kindLabels = (): Record<CameraKind, string> => Object.fromEntries(CAMERA_KINDS.map((kind) => [kind, kindName(kind)])) as Record<CameraKind, string>;

/** "5 minutes", "1.5 minutes", "3 seconds", "2 hours": an interval as people say it (common/messages/cameras.ts `intervalText`, in the reader's language). */
export function intervalName(seconds: number): string {
  const say = (unit: 'seconds' | 'minutes' | 'hours', count: number) => i18next.t(`interval.${unit}`, { ns: camerasTexts, count, value: formatNumber(count, { maximumFractionDigits: 2, useGrouping: false }) });
  if (seconds < 60) return say('seconds', seconds);
  const minutes = Math.round((seconds / 60) * 100) / 100;
  if (minutes >= 60 && Number.isInteger(minutes / 60)) return say('hours', minutes / 60);
  return say('minutes', minutes);
}
