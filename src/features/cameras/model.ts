/**
 * The cameras screens' pure model: what a camera and an image's analysis say in words, the form's
 * values, and which frames a time-lapse plays. No React, no network (tested without either).
 */
import type { ParseKeys } from 'i18next';
import { CAMERA_DEFAULT_INTERVAL_MINUTES, type CameraKind } from '../../../common/messages/cameras';
import type { CameraAnalysis } from '../../../common/schemas/cameras';
import type { Camera, CameraDraft, CameraImage } from '../../api/cameras';
import { formatDate, formatNumber } from '../../i18n/format';
import { i18next } from '../../i18n/i18n';
import { translateMessage } from '../../i18n/messages';
import { camerasTexts } from './texts';

export { intervalName, kindName } from './texts';

/** One of the cameras' texts in the reader's language. */
const text = (key: ParseKeys<typeof camerasTexts>, values: Record<string, unknown> = {}): string => i18next.t(key, { ...values, ns: camerasTexts });

/** "12 Nov, 14:05:09": a capture's time on the tablet's clock. */
export function timeText(iso: string | null): string {
  if (!iso) return text('never');
  return formatDate(iso, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** "14:05:09" today, else "12 Nov, 14:05:09": for the phone's status, read from a few steps away. */
export function clockText(iso: string | null, now: Date = new Date()): string {
  if (!iso) return text('never');
  const at = new Date(iso);
  if (at.toDateString() !== now.toDateString()) return timeText(iso);
  return formatDate(at, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** "Flower 1 · Bench A · A-07": where a camera looks. */
export function placeText(camera: Pick<Camera, 'room_name' | 'grid_name' | 'grid_box_name'>): string {
  return [camera.room_name ?? text('deletedRoom'), camera.grid_name, camera.grid_box_name].filter(Boolean).join(' · ');
}

/** A number of an analysis as people read it: shares as percentages, counts as they are. */
function valueText(key: string, value: number): string {
  if (/share|fraction|ratio|percent/i.test(key) && value >= 0 && value <= 1) return formatNumber(value, { style: 'percent', maximumFractionDigits: 1 });
  return formatNumber(value, { maximumFractionDigits: 2 });
}

/** The built-in analyses' values (common/vision: leaf-colour.ts, trap-marks.ts) by their keys. */
const VALUE_NAMES = {
  leafShare: 'analysis.values.leafShare',
  healthy: 'analysis.values.healthy',
  chlorotic: 'analysis.values.chlorotic',
  necrotic: 'analysis.values.necrotic',
  powdery: 'analysis.values.powdery',
  thrips: 'analysis.values.thrips',
  whitefly_aphid: 'analysis.values.whitefly_aphid',
  gnat_fly: 'analysis.values.gnat_fly',
} as const satisfies Record<string, ParseKeys<typeof camerasTexts>>;

/** A value's name: a built-in analysis's in the reader's language, another's from its key ("leafShare" → "leaf share"). */
function valueName(key: string): string {
  const known = Object.hasOwn(VALUE_NAMES, key) ? VALUE_NAMES[key as keyof typeof VALUE_NAMES] : null;
  return known ? text(known) : key.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

const line = (key: string, value: string) => text('analysis.line', { name: valueName(key), value });

/** The numbers a built-in analysis's result holds at its top level and one level down (counts by size class, shares by colour). */
function resultLines(result: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(result)) {
    if (typeof value === 'number' && key !== 'version') lines.push(line(key, valueText(key, value)));
    else if (value && typeof value === 'object' && !Array.isArray(value) && !/size|bounds|trap/i.test(key)) {
      for (const [inner, number] of Object.entries(value as Record<string, unknown>)) if (typeof number === 'number') lines.push(line(inner, valueText(`${key} ${inner}`, number)));
    }
  }
  return lines;
}

/** What an image's analysis found, as lines for the timeline (most telling first). */
export function analysisLines(analysis: CameraAnalysis | null): string[] {
  if (analysis === null) return [text('analysis.analysing')];
  if (analysis.type === 'failed') return [text('analysis.none', { message: translateMessage(analysis.message) })];
  // A built-in analysis's name is one of the spec's messages (common/messages/models.ts).
  const model = `${translateMessage(analysis.model.name)}${analysis.model.version === null ? '' : ` v${analysis.model.version}`}`;
  const by = text('analysis.by', { model });
  if (analysis.type === 'classifier') {
    const findings = analysis.findings.slice(0, 3).map((finding) => text('analysis.finding', { label: finding.label, confidence: formatNumber(finding.confidence, { style: 'percent', maximumFractionDigits: 0 }) }));
    return [...(findings.length ? findings : [text('analysis.nothingFound')]), by];
  }
  const lines = resultLines(analysis.result);
  return [...(lines.length ? lines : [text('analysis.nothingFound')]), by];
}

/** The camera's state in words, with why it fails (the server's reason, common/messages/cameras.ts `fetchProblems`, in the reader's language). */
export function stateText(camera: Pick<Camera, 'state' | 'enabled' | 'last_error' | 'kind'>): string {
  if (!camera.enabled) return text('states.paused');
  if (camera.state === 'failing') return text('states.failingBecause', { reason: camera.last_error ? translateMessage(camera.last_error) : text('states.noImageArrives') });
  if (camera.state === 'waiting' && camera.kind === 'device') return text('states.waitingForPhone');
  return text(`states.${camera.state}`);
}

/** The form's values: text, as the inputs hold them. Rooms, grids and boxes by their local document id. */
export interface CameraFormValues {
  name: string;
  kind: CameraKind;
  roomId: string;
  gridId: string;
  gridBoxId: string;
  snapshotUrl: string;
  intervalMinutes: string;
  /** '' for the company's model setting. */
  modelKey: string;
  enabled: boolean;
}

export const NEW_CAMERA: CameraFormValues = {
  name: '',
  kind: 'ip',
  roomId: '',
  gridId: '',
  gridBoxId: '',
  snapshotUrl: '',
  intervalMinutes: String(CAMERA_DEFAULT_INTERVAL_MINUTES),
  modelKey: '',
  enabled: true,
};

/** A saved camera's values; its places named by the local documents whose server ids it holds (`docIdOf`). */
export function valuesOf(camera: Camera, docIdOf: (collection: 'rooms' | 'grids' | 'grid_boxes', serverId: number | null) => string): CameraFormValues {
  return {
    name: camera.name,
    kind: camera.kind,
    roomId: docIdOf('rooms', camera.room_id),
    gridId: docIdOf('grids', camera.grid_id),
    gridBoxId: docIdOf('grid_boxes', camera.grid_box_id),
    snapshotUrl: camera.snapshot_url ?? '',
    intervalMinutes: String(camera.interval_minutes),
    modelKey: camera.model_key ?? '',
    enabled: camera.enabled,
  };
}

/** The draft a form's values save (ids as the local documents' client ids: the server resolves them). */
export function draftOf(values: CameraFormValues, companyId: number, camera?: Camera): CameraDraft {
  return {
    ...(camera ? { cameraId: camera.camera_id } : {}),
    companyId,
    name: values.name,
    kind: camera?.kind ?? values.kind,
    roomId: values.roomId,
    gridId: values.gridId || null,
    gridBoxId: values.gridBoxId || null,
    snapshotUrl: values.snapshotUrl,
    intervalMinutes: values.intervalMinutes.trim() === '' ? Number.NaN : Number(values.intervalMinutes.replace(',', '.')),
    modelKey: values.modelKey || null,
    enabled: values.enabled,
  };
}

/** Frames a time-lapse plays at most: more are thinned evenly (a week at 5 minutes is 2,016 images). */
export const TIME_LAPSE_MAX_FRAMES = 300;

/** The frames of a time-lapse: oldest first, thinned evenly to at most `max`, the newest always kept. */
export function timeLapseFrames<T extends Pick<CameraImage, 'captured_at'>>(newestFirst: readonly T[], max = TIME_LAPSE_MAX_FRAMES): T[] {
  const frames = [...newestFirst].reverse();
  if (frames.length <= max) return frames;
  const step = (frames.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, index) => frames[Math.round(index * step)]!);
}
