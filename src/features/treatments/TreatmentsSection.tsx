/**
 * The treatments part of the screen: a type picker (starting on 'biological', spec §3), then per product
 * the company's treatment of that type: add it, edit its sub-type and notes, and (Admins) remove or
 * restore it (delete_treatment's toggle).
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { INITIAL_TREATMENT_TYPE, TREATMENT_TYPES, type TreatmentType, treatmentMessages as m } from '../../../common/messages/treatments';
import { createTreatment, type SprayProductDocument, toggleTreatment, type TreatmentDocument, updateTreatment } from '../../api/treatments';
import { useAction, type SignedInUser } from '../../app/hooks';
import { Field, FormButtons, FormError } from '../shell/forms';
import { notesOf, treatmentOf } from './model';
import { RecordStatus } from '../shell/RecordStatus';
import { treatmentsTexts } from './texts';

export function TreatmentsSection({ user, products, treatments }: { user: SignedInUser; products: SprayProductDocument[]; treatments: TreatmentDocument[] }) {
  const { t } = useTranslation(treatmentsTexts);
  const [type, setType] = useState<TreatmentType>(INITIAL_TREATMENT_TYPE);
  return (
    <section className="treatment-section" aria-labelledby="treatments-heading">
      <h2 id="treatments-heading">{t('treatments.heading')}</h2>
      <fieldset className="type-picker">
        <legend>{t('treatments.typeLegend')}</legend>
        {TREATMENT_TYPES.map((each) => (
          <label key={each} className={`type-choice${each === type ? ' chosen' : ''}`}>
            <input type="radio" name="treatment-type" value={each} checked={each === type} onChange={() => setType(each)} />
            {t(`types.${each}.label`)}
          </label>
        ))}
      </fieldset>
      {products.length === 0 ? (
        <p className="empty">{t('treatments.needProduct')}</p>
      ) : (
        <ul className="treatment-list" aria-label={t(`types.${type}.list`)}>
          {products.map((product) => (
            <TreatmentCard key={`${product.id}-${type}`} user={user} product={product} type={type} treatment={treatmentOf(treatments, product.id, type)} />
          ))}
        </ul>
      )}
    </section>
  );
}

function TreatmentCard({ user, product, type, treatment }: { user: SignedInUser; product: SprayProductDocument; type: TreatmentType; treatment: TreatmentDocument | null }) {
  const { t } = useTranslation(treatmentsTexts);
  const [editing, setEditing] = useState(false);
  const toggle = useAction(toggleTreatment);
  const label = t(`types.${type}.card`, { product: product.ProductName });
  if (editing) return <TreatmentForm user={user} product={product} type={type} treatment={treatment} onDone={() => setEditing(false)} />;

  async function flip() {
    if (!treatment) return;
    await toggle.run({ companyId: user.companyId, productId: product.id, treatmentType: type, removed: !treatment.removed });
  }

  return (
    <li className={`card treatment-card${treatment?.removed ? ' removed' : ''}`} aria-label={label}>
      <div className="treatment-head">
        <h3>{product.ProductName}</h3>
        {treatment?.removed && <span className="chip removed-chip">{t('treatments.removed')}</span>}
        {treatment && <RecordStatus document={treatment} />}
      </div>
      {treatment ? (
        <>
          {treatment.sub_type && <p className="treatment-subtype">{treatment.sub_type}</p>}
          <p className={notesOf(treatment) ? 'treatment-notes' : 'muted'}>{notesOf(treatment) || t('treatments.noNotes')}</p>
        </>
      ) : (
        <p className="muted">{t(`types.${type}.none`)}</p>
      )}
      <div className="treatment-actions">
        {treatment ? (
          <button type="button" className="button" onClick={() => setEditing(true)}>
            {t('edit')}
          </button>
        ) : (
          <button type="button" className="button primary" onClick={() => setEditing(true)}>
            {t(`types.${type}.add`)}
          </button>
        )}
        {treatment && user.isAdmin && (
          <button type="button" className={treatment.removed ? 'button primary' : 'button danger'} disabled={toggle.busy} onClick={() => void flip()}>
            {treatment.removed ? t('treatments.restore') : t('treatments.remove')}
          </button>
        )}
      </div>
      <FormError error={toggle.error} />
    </li>
  );
}

function TreatmentForm({ user, product, type, treatment, onDone }: { user: SignedInUser; product: SprayProductDocument; type: TreatmentType; treatment: TreatmentDocument | null; onDone: () => void }) {
  const { t } = useTranslation(treatmentsTexts);
  const [subType, setSubType] = useState(treatment?.sub_type ?? '');
  const [notes, setNotes] = useState(notesOf(treatment));
  const create = useAction(createTreatment, m.treatmentCreated, { inlineErrors: true });
  const update = useAction(updateTreatment, m.treatmentUpdated, { inlineErrors: true });
  const action = treatment ? update : create;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const base = { companyId: user.companyId, productId: product.id, treatmentType: type };
    if (!treatment) {
      if (await create.run({ ...base, subType: subType.trim() === '' ? undefined : subType, data: { notes } })) onDone();
      return;
    }
    // update_treatment replaces `data` whole: the fields this screen does not show are kept.
    if (await update.run({ ...base, data: { ...treatment.data, notes }, subType: subType === (treatment.sub_type ?? '') ? undefined : subType })) onDone();
  }

  const title = t(treatment ? `types.${type}.editTitle` : `types.${type}.newTitle`, { product: product.ProductName });
  return (
    <li className="treatment-card-form">
      <form className="form card treatment-form" onSubmit={(event) => void submit(event)} noValidate aria-label={title}>
        <h3>{title}</h3>
        <Field label={t('treatments.subType')}>
          <input value={subType} onChange={(event) => setSubType(event.target.value)} autoComplete="off" autoFocus />
        </Field>
        <Field label={t('notes')}>
          <textarea rows={3} value={notes} onChange={(event) => setNotes(event.target.value)} />
        </Field>
        <FormError error={action.error} />
        <FormButtons submitLabel={treatment ? t('treatments.save') : t('treatments.add')} busy={action.busy} onCancel={onDone} />
      </form>
    </li>
  );
}
