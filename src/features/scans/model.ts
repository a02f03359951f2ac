/**
 * What the scan screens work with (issue 17): the model a scan runs (the company's `ai_model`: a
 * built-in analysis or an uploaded classifier the tablet holds), the walk of a grid's boxes in the
 * company's order, and findings as a scan records them.
 */
import { BUILT_IN_MODELS, builtInModel } from '../../../common/models/catalogue';
import type { GridOrder } from '../../../common/messages/settings';
import type { AiModelRecord, ClassifierFinding } from '../../../common/schemas/models';
import type { ScanFinding, ScanType } from '../../../common/schemas/scans';
import type { ScanModel } from '../../api/scans';
import type { LocalDocument } from '../../db/schemas';
import { formatNumber } from '../../i18n/format';
import { type BoxDoc, boxLabel, type GridDoc, gridSize, numberOfBox } from '../rooms/model';

/** An uploaded classifier as the tablet holds it (`operations`, kind `ai_model`). */
export type AiModelDoc = LocalDocument & AiModelRecord;

export const AI_MODEL_SELECTOR = { kind: 'ai_model' } as const;

/** How a photo is analysed: one of the built-in analyses, or a company classifier. */
export type ScanAnalysis = { kind: 'sticky_trap' } | { kind: 'leaf_colour' } | { kind: 'classifier'; model: AiModelDoc };

/** The model a scan of `scanType` runs: a trap scan always counts; a disease scan runs the company's `ai_model`. */
export function scanModelFor(scanType: ScanType, aiModel: string | null | undefined, models: readonly AiModelDoc[]): { model: ScanModel; analysis: ScanAnalysis } | { missing: string } {
  if (scanType === 'sticky_trap') {
    const counter = builtInModel('stickyTrapCounter')!;
    return { model: { key: counter.key, name: counter.name, version: null }, analysis: { kind: 'sticky_trap' } };
  }
  const key = aiModel || BUILT_IN_MODELS[0].key;
  const builtIn = builtInModel(key);
  if (builtIn) return { model: { key: builtIn.key, name: builtIn.name, version: null }, analysis: { kind: builtIn.analysis } };
  // The newest version under the key: uploading again under a name makes its next version.
  const uploaded = models.filter((model) => model.key === key).sort((a, b) => b.version - a.version)[0];
  if (!uploaded) return { missing: key };
  return { model: { key: uploaded.key, name: uploaded.name, version: String(uploaded.version) }, analysis: { kind: 'classifier', model: uploaded } };
}

/** A box of the walk: its number in the company's order and the name it shows. */
export interface WalkBox {
  box: BoxDoc;
  number: number;
  label: string;
}

/** The grid's boxes in the order the company numbers them (as a grower walks the bench). */
export function walkOf(grid: GridDoc, boxes: BoxDoc[], order: GridOrder): WalkBox[] {
  const { nx, ny } = gridSize(grid, boxes);
  return boxes
    .map((box) => {
      const number = numberOfBox(order, box, nx, ny);
      return { box, number, label: boxLabel(box, number) };
    })
    .sort((a, b) => a.number - b.number);
}

/** Findings under this confidence start unconfirmed: the grower ticks what they see. */
export const CONFIRM_FROM = 0.5;
/** The severity a confirmed finding gets until the grower sets one (the middle of 1–5). */
export const DEFAULT_SEVERITY = 3;

/** A finding of the analysis as a scan records it: the problem its label names (the catalogue's name, else the label), ticked when sure enough. */
export function scanFindingOf(finding: ClassifierFinding, problemName: (slug: string) => string | undefined): ScanFinding {
  const named = finding.problem_slug ? problemName(finding.problem_slug) : undefined;
  const problemType = named ?? (finding.problem_slug ? finding.label : null);
  return {
    label: finding.label,
    problem_type: problemType,
    problem_slug: named ? finding.problem_slug : null,
    confidence: Math.min(1, Math.max(0, finding.confidence)),
    confirmed: problemType !== null && finding.confidence >= CONFIRM_FROM,
    severity: problemType !== null ? DEFAULT_SEVERITY : null,
    problem_client_id: null,
  };
}

/** "87%": a confidence as the reader writes a percentage. */
export const percent = (share: number) => formatNumber(share, { style: 'percent', maximumFractionDigits: 0 });

/**
 * The label of a finding the grower adds by hand: stored with the scan as it is (the server's data, in
 * every reader's scans alike), shown in the reader's language (locales: findings.seenByGrower).
 */
export const GROWER_FINDING_LABEL = 'Seen by the grower';
