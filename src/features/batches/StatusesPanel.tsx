/**
 * Crop statuses: the built-in stages every company has, and the company's own (Admin: add, remove).
 * Removing a status leaves the batches that carry it as they are (README "Batches").
 */
import { type FormEvent, useState } from 'react';
import { batchMessages, createCustomBatchStatus, deleteCustomBatchStatus } from '../../api/batches';
import { useAction } from '../../app/hooks';
import { FormButtons, FormError } from '../shell/forms';

export function StatusesPanel(props: { companyId: number | null; statuses: { builtIn: string[]; custom: string[] }; inUse: ReadonlyMap<string, number>; isAdmin: boolean }) {
  const [name, setName] = useState('');
  const [confirming, setConfirming] = useState<string | null>(null);
  const create = useAction(createCustomBatchStatus, batchMessages.customStatusCreated);
  const remove = useAction(deleteCustomBatchStatus, batchMessages.customStatusDeleted);

  async function add(event: FormEvent) {
    event.preventDefault();
    if (await create.run({ companyId: props.companyId, statusName: name })) setName('');
  }

  const uses = (status: string) => {
    const count = props.inUse.get(status) ?? 0;
    return count ? `${count} batch${count === 1 ? '' : 'es'}` : 'not used';
  };

  return (
    <div className="bt-statuses-panel">
      <section aria-labelledby="built-in-statuses">
        <h3 id="built-in-statuses">Stages (built in)</h3>
        <ul className="bt-status-list">
          {props.statuses.builtIn.map((status) => (
            <li key={status}>
              <span className="bt-status-chip">{status}</span>
              <small className="muted">{uses(status)}</small>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="custom-statuses">
        <h3 id="custom-statuses">Your statuses</h3>
        {props.statuses.custom.length === 0 ? (
          <p className="muted">None yet.{props.isAdmin ? ' Add one below.' : ''}</p>
        ) : (
          <ul className="bt-status-list">
            {props.statuses.custom.map((status) => (
              <li key={status}>
                <span className="bt-status-chip bt-custom">{status}</span>
                <small className="muted">{uses(status)}</small>
                {props.isAdmin &&
                  (confirming === status ? (
                    <span className="bt-row-actions">
                      <button
                        type="button"
                        className="button danger"
                        disabled={remove.busy}
                        onClick={() => void remove.run({ companyId: props.companyId, statusName: status }).then(() => setConfirming(null))}
                      >
                        Delete {status}
                      </button>
                      <button type="button" className="button" onClick={() => setConfirming(null)}>
                        Keep
                      </button>
                    </span>
                  ) : (
                    <button type="button" className="button danger" aria-label={`Delete status ${status}`} onClick={() => setConfirming(status)}>
                      Delete
                    </button>
                  ))}
              </li>
            ))}
          </ul>
        )}
      </section>
      {props.isAdmin ? (
        <form className="form" onSubmit={(event) => void add(event)} noValidate>
          <label>
            New status
            <input name="statusName" value={name} onChange={(event) => setName(event.target.value)} maxLength={60} autoComplete="off" placeholder="e.g. Mother plants" />
          </label>
          <FormError banner error={create.error} />
          <FormButtons className="bt-row-actions" submitLabel="Add status" busyLabel="Adding…" busy={create.busy} />
        </form>
      ) : (
        <p className="muted">Only an Admin can add or remove statuses.</p>
      )}
      <FormError banner error={remove.error} />
    </div>
  );
}
