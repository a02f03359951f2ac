/**
 * One box of a scan's walk (issue 17): its photo from the tablet's camera, analysed at once on the
 * tablet, the findings or trap marks corrected by the grower, then saved (queued with the photo) or
 * skipped. Says what is happening: analysing, what was found, a photo that could not be read.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScanFinding, ScanMark } from '../../../common/schemas/scans';
import { preparePhoto } from '../../app/photos';
import { formatNumber } from '../../i18n/format';
import { messageOf } from '../../i18n/messages';
import type { LoadedCatalogue } from '../plant-problems/useCatalogue';
import { usePreview } from '../rooms/hooks';
import { analysePhoto, type PhotoAnalysis } from './analyse';
import { Findings } from './Findings';
import type { ScanAnalysis, WalkBox } from './model';
import { scansTexts } from './texts';
import { TrapMarks } from './TrapMarks';

export interface BoxResult {
  photo: Blob;
  findings: ScanFinding[];
  marks: ScanMark[];
}

type Step = { state: 'waiting' } | { state: 'analysing' } | { state: 'failed'; error: string } | { state: 'done'; analysis: PhotoAnalysis; tookMs: number };

export function BoxScan(props: {
  walkBox: WalkBox;
  analysis: ScanAnalysis;
  catalogue: LoadedCatalogue | null;
  /** A photo handed over (a video's frame), analysed as if just taken. */
  initialPhoto?: Blob | null;
  saving: boolean;
  onSave: (result: BoxResult) => void;
  onSkip: () => void;
}) {
  const { t } = useTranslation(scansTexts);
  const [photo, setPhoto] = useState<Blob | null>(props.initialPhoto ?? null);
  const [step, setStep] = useState<Step>({ state: 'waiting' });
  const [findings, setFindings] = useState<ScanFinding[]>([]);
  const [marks, setMarks] = useState<ScanMark[]>([]);
  const preview = usePreview(photo);
  const { analysis, catalogue } = props;

  useEffect(() => {
    if (!photo) return undefined;
    let alive = true;
    setStep({ state: 'analysing' });
    const started = performance.now();
    analysePhoto(photo, analysis, (slug) => catalogue?.problem(slug)?.name).then(
      (result) => {
        if (!alive) return;
        setFindings(result.kind === 'findings' ? result.findings : []);
        setMarks(result.kind === 'sticky_trap' ? result.marks : []);
        setStep({ state: 'done', analysis: result, tookMs: performance.now() - started });
      },
      (error: unknown) => alive && setStep({ state: 'failed', error: messageOf(error) }),
    );
    return () => {
      alive = false;
    };
  }, [photo, analysis, catalogue]);

  async function save() {
    if (!photo) return;
    // The photo queued is fit for the server (app/photos.ts); the marks are fractions, so they fit any size.
    props.onSave({ photo: await preparePhoto(photo), findings, marks });
  }

  const { walkBox } = props;
  const ms = step.state === 'done' ? formatNumber(Math.round(step.tookMs), { useGrouping: false }) : '';
  return (
    <section className="card box-scan" aria-labelledby="box-scan-title" data-box={walkBox.box.id}>
      <h2 id="box-scan-title">
        {t('box', { number: walkBox.number })}
        {walkBox.label !== String(walkBox.number) ? ` · ${walkBox.label}` : ''}
      </h2>
      <label className="button primary photo-button">
        {photo ? t('boxScan.retake') : t('boxScan.take')}
        <input
          type="file"
          accept="image/*"
          capture="environment"
          className="visually-hidden"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) setPhoto(file);
            event.target.value = '';
          }}
        />
      </label>
      <p className="scan-status" role="status">
        {step.state === 'waiting' && t('boxScan.waiting')}
        {step.state === 'analysing' && t('boxScan.analysing')}
        {step.state === 'failed' && t('boxScan.failed', { error: step.error })}
        {step.state === 'done' &&
          (step.analysis.kind === 'sticky_trap'
            ? step.analysis.trap
              ? t(`boxScan.trapFound.${step.analysis.trap.colour}`, { insects: marks.length, ms })
              : t('boxScan.noTrap')
            : t('boxScan.findings', { count: findings.length, ms }))}
      </p>
      {preview && analysis.kind === 'sticky_trap' && step.state === 'done' && <TrapMarks photoUrl={preview} alt={t('boxScan.trapAlt', { number: walkBox.number })} marks={marks} onChange={setMarks} />}
      {preview && analysis.kind !== 'sticky_trap' && <img className="scan-photo" src={preview} alt={t('boxScan.photoAlt', { number: walkBox.number })} />}
      {analysis.kind !== 'sticky_trap' && step.state === 'done' && <Findings findings={findings} catalogue={catalogue} onChange={setFindings} />}
      <div className="form-buttons">
        <button type="button" className="button primary" disabled={!photo || step.state === 'analysing' || props.saving} onClick={() => void save()}>
          {props.saving ? t('boxScan.saving') : t('boxScan.saveNext')}
        </button>
        <button type="button" className="button" onClick={props.onSkip} disabled={props.saving}>
          {t('boxScan.skip')}
        </button>
      </div>
    </section>
  );
}
