/**
 * Treatments (spec part 2 §3, §4, §7, §8: treatmentProduct): the company's spray products, its
 * treatments by type, and sprays of a product on boxes picked on a room's grid, all from the local
 * `operations` collection (kinds `spray_product`, `treatment`, `spray_application`) and changed through
 * src/api/treatments.ts, so everything works offline and shows at once, marked while it waits to sync.
 *
 * Where the spec is silent:
 * - Admins add, edit and delete products and remove or restore treatments (the server's rule); everyone
 *   reads products, makes and edits treatments, and sprays.
 * - The treatment type picker starts on 'biological' (spec §3) and shows, per product, the treatment of
 *   that type; a treatment's own field on this screen is its notes (kept in its `data`).
 * - A removed treatment stays listed as removed, with Restore (delete_treatment is a toggle).
 * - A record the server refused says so on its card, with the server's message; the screen's banner
 *   counts them (the sync indicator offers retry and discard).
 */
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { treatmentMessages as m } from '../../../common/messages/treatments';
import { addSprayProduct, deleteProduct, type ProductFields, type SprayApplicationDocument, type SprayProductDocument, type TreatmentDocument, updateSprayProduct } from '../../api/treatments';
import { useAction, useLocalQuery, type SignedInUser } from '../../app/hooks';
import { useSyncStatus } from '../../sync/sync-store';
import { SignedIn } from '../session/SignedIn';
import { ConfirmPanel, Field, FormButtons, FormError } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { byProductName, productFacts } from './model';
import { RecordStatus } from '../shell/RecordStatus';
import { SprayPanel } from './SprayPanel';
import { TreatmentsSection } from './TreatmentsSection';
import { treatmentsTexts } from './texts';
import './treatments.css';

export function TreatmentsScreen() {
  const { t } = useTranslation(treatmentsTexts);
  return <SignedIn title={t('title')}>{(user) => <Treatments user={user} />}</SignedIn>;
}

function Treatments({ user }: { user: SignedInUser }) {
  const { t } = useTranslation(treatmentsTexts);
  // The company's own documents only: a shared tablet may still hold another company's.
  const { companyId } = user;
  const products = useLocalQuery<SprayProductDocument>('operations', { kind: 'spray_product', company_id: companyId }, `spray_product-${companyId}`);
  const treatments = useLocalQuery<TreatmentDocument>('operations', { kind: 'treatment', company_id: companyId }, `treatment-${companyId}`);
  const sprays = useLocalQuery<SprayApplicationDocument>('operations', { kind: 'spray_application', company_id: companyId }, `spray_application-${companyId}`);
  const [adding, setAdding] = useState(false);
  const sorted = useMemo(() => [...products.documents].sort(byProductName), [products.documents]);

  const ids = useMemo(() => new Set([...products.documents, ...treatments.documents, ...sprays.documents].map((document) => document.id)), [products.documents, treatments.documents, sprays.documents]);
  const refused = useSyncStatus((status) => status.failed.filter((entry) => entry.creates.some((id) => ids.has(id))).length);

  return (
    <Screen
      title={t('title')}
      loading={products.loading || treatments.loading || sprays.loading}
      error={refused > 0 ? t('refused', { count: refused }) : null}
      actions={
        user.isAdmin && (
          <button type="button" className="button primary" onClick={() => setAdding(true)}>
            {t('products.add')}
          </button>
        )
      }
    >
      {adding && <ProductForm user={user} onDone={() => setAdding(false)} />}

      <section className="treatment-section" aria-labelledby="products-heading">
        <h2 id="products-heading">{t('products.heading')}</h2>
        {sorted.length === 0 ? (
          <p className="empty">{user.isAdmin ? t('products.noneAdmin') : t('products.none')}</p>
        ) : (
          <ul className="treatment-list" aria-label={t('products.heading')}>
            {sorted.map((product) => (
              <ProductCard key={product.id} product={product} user={user} />
            ))}
          </ul>
        )}
      </section>

      <TreatmentsSection user={user} products={sorted} treatments={treatments.documents} />
      <SprayPanel user={user} products={sorted} sprays={sprays.documents} />
    </Screen>
  );
}

function ProductCard({ product, user }: { product: SprayProductDocument; user: SignedInUser }) {
  const { t } = useTranslation(treatmentsTexts);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useAction(deleteProduct, m.productDeleted);
  if (editing) return <ProductForm user={user} product={product} onDone={() => setEditing(false)} />;
  return (
    <li className="card treatment-card" aria-label={product.ProductName}>
      <div className="treatment-head">
        <h3>{product.ProductName}</h3>
        <RecordStatus document={product} />
      </div>
      <dl className="facts">
        {productFacts(product).map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {user.isAdmin &&
        (confirming ? (
          <ConfirmPanel
            question={t('products.deleteQuestion', { product: product.ProductName })}
            message={t('products.deleteMessage', { product: product.ProductName })}
            busy={remove.busy}
            onConfirm={() => void remove.run({ productId: product.id, companyId: user.companyId })}
            onKeep={() => setConfirming(false)}
          />
        ) : (
          <div className="treatment-actions">
            <button type="button" className="button" onClick={() => setEditing(true)}>
              {t('edit')}
            </button>
            <button type="button" className="button danger" onClick={() => setConfirming(true)}>
              {t('delete')}
            </button>
          </div>
        ))}
      <FormError error={remove.error} />
    </li>
  );
}

const textOf = (value: number | string | null | undefined) => (value === null || value === undefined ? '' : String(value));

type ProductTexts = Record<'productName' | 'activeIngredient' | 'rate' | 'rateUnit' | 'reentryHours' | 'preharvestDays', string>;

const textsOf = (product?: SprayProductDocument): ProductTexts => ({
  productName: product?.ProductName ?? '',
  activeIngredient: textOf(product?.ActiveIngredient),
  rate: textOf(product?.Rate),
  rateUnit: textOf(product?.RateUnit),
  reentryHours: textOf(product?.ReentryHours),
  preharvestDays: textOf(product?.PreharvestDays),
});

/** The form's fields, each labelled by its name (treatmentsTexts `products.fields`). */
const FIELDS: Array<{ name: keyof ProductTexts; numeric?: boolean }> = [
  { name: 'productName' },
  { name: 'activeIngredient' },
  { name: 'rate', numeric: true },
  { name: 'rateUnit' },
  { name: 'reentryHours', numeric: true },
  { name: 'preharvestDays', numeric: true },
];

/** A product's form: a new one, or the changes to one (only the fields changed are sent; a field emptied is cleared). */
function ProductForm({ user, product, onDone }: { user: SignedInUser; product?: SprayProductDocument; onDone: () => void }) {
  const { t } = useTranslation(treatmentsTexts);
  const initial = useMemo(() => textsOf(product), [product]);
  const [texts, setTexts] = useState(initial);
  const add = useAction(addSprayProduct, m.productAdded, { inlineErrors: true });
  const update = useAction(updateSprayProduct, m.productUpdated, { inlineErrors: true });
  const action = product ? update : add;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!product) {
      if (await add.run({ companyId: user.companyId, ...texts })) onDone();
      return;
    }
    const changes: ProductFields = {};
    for (const { name } of FIELDS) if (texts[name] !== initial[name]) changes[name] = texts[name];
    if (Object.keys(changes).length === 0) return onDone();
    if (await update.run({ productId: product.id, companyId: user.companyId, ...changes })) onDone();
  }

  const title = product ? t('products.editTitle', { product: product.ProductName }) : t('products.newTitle');
  const form = (
    <form className="form card treatment-form" onSubmit={(event) => void submit(event)} noValidate aria-label={title}>
      <h2>{title}</h2>
      <div className="form-columns">
        {FIELDS.map(({ name, numeric }) => (
          <Field key={name} label={t(`products.fields.${name}`)}>
            <input
              value={texts[name]}
              inputMode={numeric ? 'decimal' : undefined}
              autoComplete="off"
              autoFocus={name === 'productName'}
              onChange={(event) => setTexts({ ...texts, [name]: event.target.value })}
            />
          </Field>
        ))}
      </div>
      <FormError error={action.error} />
      <FormButtons submitLabel={product ? t('products.save') : t('products.add')} busy={action.busy} onCancel={onDone} />
    </form>
  );
  return product ? <li className="treatment-card-form">{form}</li> : form;
}
