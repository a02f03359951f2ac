/**
 * A box photo's findings (issue 17): each label with how sure the model was; editing, the grower
 * confirms what they see, corrects the problem a label names (from the catalogue, or in their own
 * words) and its severity, and adds what the model missed. Only confirmed findings become problems.
 */
import { useId } from 'react';
import { SEVERITY_MAX, SEVERITY_MIN } from '../../../common/messages/problems';
import type { ScanFinding } from '../../../common/schemas/scans';
import type { LoadedCatalogue } from '../plant-problems/useCatalogue';
import { DEFAULT_SEVERITY, percent } from './model';

const SEVERITIES = Array.from({ length: SEVERITY_MAX - SEVERITY_MIN + 1 }, (_, index) => SEVERITY_MIN + index);

export function Findings(props: { findings: ScanFinding[]; catalogue: LoadedCatalogue | null; onChange?: (findings: ScanFinding[]) => void }) {
  const { findings, onChange } = props;
  const listId = useId();
  const change = (index: number, patch: Partial<ScanFinding>) => onChange?.(findings.map((finding, at) => (at === index ? { ...finding, ...patch } : finding)));

  function renamed(index: number, name: string) {
    const entry = props.catalogue?.named(name);
    change(index, { problem_type: name.trim() || null, problem_slug: entry?.slug ?? null, ...(name.trim() ? {} : { confirmed: false }) });
  }

  return (
    <div className="findings">
      {findings.length === 0 && <p className="muted">Nothing found on this photo.</p>}
      <ul>
        {findings.map((finding, index) => (
          <li key={`${finding.label}-${index}`} className={finding.confirmed ? 'finding confirmed' : 'finding'}>
            <div className="finding-head">
              <strong>{finding.label}</strong> <span className="confidence">{percent(finding.confidence)} sure</span>
            </div>
            {onChange ? (
              <div className="finding-edit">
                <label className="check">
                  <input type="checkbox" checked={finding.confirmed} disabled={!finding.problem_type} onChange={(event) => change(index, { confirmed: event.target.checked, severity: finding.severity ?? DEFAULT_SEVERITY })} />
                  Confirm: record as a problem
                </label>
                <label>
                  Problem
                  <input className="control" list={listId} value={finding.problem_type ?? ''} onChange={(event) => renamed(index, event.target.value)} placeholder="What the plant has" />
                </label>
                <label>
                  Severity
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
                {finding.problem_type ?? 'No problem'}
                {finding.confirmed ? `: recorded, severity ${finding.severity ?? DEFAULT_SEVERITY}` : ': not confirmed'}
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
            onClick={() => onChange([...findings, { label: 'Seen by the grower', problem_type: null, problem_slug: null, confidence: 1, confirmed: false, severity: DEFAULT_SEVERITY, problem_client_id: null }])}
          >
            Add a problem the scan missed
          </button>
          <datalist id={listId}>
            {props.catalogue?.problems.map((problem) => <option key={problem.slug} value={problem.name} />)}
          </datalist>
        </>
      )}
    </div>
  );
}
