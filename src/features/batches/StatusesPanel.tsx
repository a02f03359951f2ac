/**
 * Crop statuses: the built-in stages every company has, and the company's own (Admin: add, remove).
 * Removing a status leaves the batches that carry it as they are (README "Batches").
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { batchMessages, createCustomBatchStatus, deleteCustomBatchStatus } from '../../api/batches';
import { useAction } from '../../app/hooks';
import { FormButtons, FormError } from '../shell/forms';
import { batchesTexts, statusName } from './texts';

export function StatusesPanel(props: { companyId: number | null; statuses: { builtIn: string[]; custom: string[] }; inUse: ReadonlyMap<string, number>; isAdmin: boolean }) {
  const { t } = useTranslation(batchesTexts);
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
    return count ? t('statusesPanel.uses', { count }) : t('statusesPanel.notUsed');
  };

  return (
    <div className="bt-statuses-panel">
      <section aria-labelledby="built-in-statuses">
        <h3 id="built-in-statuses">{t('statusesPanel.builtIn')}</h3>
        <ul className="bt-status-list">
          {props.statuses.builtIn.map((status) => (
            <li key={status}>
              <span className="bt-status-chip">{statusName(status)}</span>
              <small className="muted">{uses(status)}</small>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="custom-statuses">
        <h3 id="custom-statuses">{t('statusesPanel.yourStatuses')}</h3>
        {props.statuses.custom.length === 0 ? (
          <p className="muted">{props.isAdmin ? t('statusesPanel.noneYetAdmin') : t('statusesPanel.noneYet')}</p>
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
                        {t('statusesPanel.deleteNamed', { status })}
                      </button>
                      <button type="button" className="button" onClick={() => setConfirming(null)}>
                        {t('statusesPanel.keep')}
                      </button>
                    </span>
                  ) : (
                    <button type="button" className="button danger" aria-label={t('statusesPanel.deleteLabel', { status })} onClick={() => setConfirming(status)}>
                      {t('statusesPanel.delete')}
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
            {t('statusesPanel.newStatus')}
            <input name="statusName" value={name} onChange={(event) => setName(event.target.value)} maxLength={60} autoComplete="off" placeholder={t('statusesPanel.placeholder')} />
          </label>
          <FormError banner error={create.error} />
          <FormButtons className="bt-row-actions" submitLabel={t('statusesPanel.add')} busyLabel={t('statusesPanel.adding')} busy={create.busy} />
        </form>
      ) : (
        <p className="muted">{t('statusesPanel.onlyAdmin')}</p>
      )}
      <FormError banner error={remove.error} />
    </div>
  );
}
