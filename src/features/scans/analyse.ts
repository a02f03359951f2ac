/**
 * A box's photo analysed on the tablet (issue 17), offline as online: the built-in analyses run in the
 * scan worker (workers/analysis.worker.ts), started on first use; a company classifier runs with ONNX
 * Runtime Web on the photo's pixels, which the worker reads at the model's input size.
 */
import * as Comlink from 'comlink';
import { type ScanFinding, type ScanMark, type TrapCounts } from '../../../common/schemas/scans';
import type { StickyTrapAnalysis } from '../../../common/vision/sticky-trap';
import type { AnalysisWorkerApi } from '../../../workers/analysis.worker';
import { type ScanAnalysis, scanFindingOf } from './model';
import { countsOfMarks } from '../../../common/vision/trap-marks';

let worker: Comlink.Remote<AnalysisWorkerApi> | null = null;

function analysisWorker(): Comlink.Remote<AnalysisWorkerApi> {
  worker ??= Comlink.wrap<AnalysisWorkerApi>(new Worker(new URL('../../../workers/analysis.worker.ts', import.meta.url), { type: 'module' }));
  return worker;
}

/** What the analysis of one photo found, ready for the grower to correct. */
export type PhotoAnalysis =
  | { kind: 'sticky_trap'; trap: StickyTrapAnalysis['trap']; marks: ScanMark[]; counts: TrapCounts; method: string; version: string }
  | { kind: 'findings'; findings: ScanFinding[]; method: string };

/** The catalogue's name of a problem slug (the scan screen loads the catalogue before it analyses). */
export type ProblemName = (slug: string) => string | undefined;

export async function analysePhoto(photo: Blob, analysis: ScanAnalysis, problemName: ProblemName): Promise<PhotoAnalysis> {
  switch (analysis.kind) {
    case 'sticky_trap': {
      const result = await analysisWorker().countTrap(photo);
      const marks = result.marks.map((mark) => ({ id: mark.id, x: mark.x, y: mark.y, radius: mark.radius, sizeClass: mark.sizeClass }));
      return { kind: 'sticky_trap', trap: result.trap, marks, counts: countsOfMarks(marks), method: result.method, version: result.version };
    }
    case 'leaf_colour': {
      const result = await analysisWorker().analyseLeafColour(photo);
      const findings = result.findings.map((finding) => scanFindingOf({ label: finding.label, problem_slug: finding.problemSlug, confidence: finding.confidence }, problemName));
      return { kind: 'findings', findings, method: result.method };
    }
    case 'classifier': {
      const { model } = analysis;
      const [{ classifyOnTablet }, pixels] = await Promise.all([import('./classifier'), analysisWorker().pixels(photo, Math.max(model.input.width, model.input.height) * 2)]);
      const findings = await classifyOnTablet(model, pixels);
      return { kind: 'findings', findings: findings.map((finding) => scanFindingOf(finding, problemName)), method: `${model.name} ${model.version}` };
    }
  }
}

/** Warms what a scan will need, while the grower aims the camera: the worker, and a classifier's runtime and model file. */
export function warmAnalysis(analysis: ScanAnalysis): void {
  analysisWorker();
  if (analysis.kind === 'classifier') void import('./classifier').then(({ warmClassifier }) => warmClassifier(analysis.model)).catch((error: unknown) => console.warn('Warming the classifier failed:', error));
}
