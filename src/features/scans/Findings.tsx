/**
 * A box photo's findings (issue 17): each label with how sure the model was; editing, the grower
 * confirms what they see, corrects the problem a label names (from the catalogue, or in their own
 * words) and its severity, and adds what the model missed. Only confirmed findings become problems.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SEVERITY_MAX, SEVERITY_MIN } from '../../../common/messages/problems';
import type { ScanFinding } from '../../../common/schemas/scans';
import type { LoadedCatalogue } from '../plant-problems/useCatalogue';
import { DEFAULT_SEVERITY, GROWER_FINDING_LABEL, percent } from './model';
import { scansTexts } from './texts';

const SEVERITIES = Array.from({ length: SEVERITY_MAX - SEVERITY_MIN + 1 }, (_, index) => SEVERITY_MIN + index);

export function Findings(props: { findings: ScanFinding[]; catalogue: LoadedCatalogue | null; onChange?: (findings: ScanFinding[]) => void }) {
  const { t } = useTranslation(scansTexts);
  const { findings, onChange } = props;
  const listId = useId();
  const change = (index: number, patch: Partial<ScanFinding>) => onChange?.(findings.map((finding, at) => (at === index ? { ...finding, ...patch } : finding)));

  function renamed(index: number, name: string) {
    const entry = props.catalogue?.named(name);
    change(index, { problem_type: name.trim() || null, problem_slug: entry?.slug ?? null, ...(name.trim() ? {} : { confirmed: false }) });
  }

  return (
    <div className="findings">
      {findings.length === 0 && <p className="muted">{t('findings.nothing')}</p>}
      <ul>
        {findings.map((finding, index) => (
          <li key={`${finding.label}-${index}`} className={finding.confirmed ? 'finding confirmed' : 'finding'}>
            <div className="finding-head">
              <strong>{finding.label === GROWER_FINDING_LABEL ? t('findings.seenByGrower') : finding.label}</strong>{' '}
              <span className="confidence">{t('findings.sure', { percent: percent(finding.confidence) })}</span>
            </div>
            {onChange ? (
              <div className="finding-edit">
                <label className="check">
                  <input type="checkbox" checked={finding.confirmed} disabled={!finding.problem_type} onChange={(event) => change(index, { confirmed: event.target.checked, severity: finding.severity ?? DEFAULT_SEVERITY })} />
                  {t('findings.confirm')}
                </label>
                <label>
                  {t('findings.problem')}
                  <input className="control" list={listId} value={finding.problem_type ?? ''} onChange={(event) => renamed(index, event.target.value)} placeholder={t('findings.placeholder')} />
                </label>
                <label>
                  {t('findings.severity')}
                  <select className="control" value={finding.severity ?? DEFAULT_SEVERITY} onChange={(event) => change(index, { severity: Number(event.target.value) })}>
                    {SEVERITIES.map((severity) => (
                      <option key={severity} value={severity}>
                        {severity}
                      </option>
                    ))}
                  </select>
                </label>
              </div>
            ) : (
              <p>
                {finding.confirmed
                  ? t('findings.recorded', { problem: finding.problem_type ?? t('findings.noProblem'), severity: finding.severity ?? DEFAULT_SEVERITY })
                  : t('findings.notConfirmed', { problem: finding.problem_type ?? t('findings.noProblem') })}
              </p>
            )}
          </li>
        ))}
      </ul>
      {onChange && (
        <>
          <button
            type="button"
            className="button"
            onClick={() => onChange([...findings, { label: GROWER_FINDING_LABEL, problem_type: null, problem_slug: null, confidence: 1, confirmed: false, severity: DEFAULT_SEVERITY, problem_client_id: null }])}
          >
            {t('findings.addMissed')}
          </button>
          <datalist id={listId}>
            {props.catalogue?.problems.map((problem) => <option key={problem.slug} value={problem.name} />)}
          </datalist>
        </>
      )}
    </div>
  );
}
