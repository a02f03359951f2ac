/**
 * One form response as growers read it: its form, when and by whom, its answers and photos, and
 * whether it has reached the server; a corrected answer says what it was submitted as. Shown in a list (`<ul className="responses">`): by the
 * observations screen, and by a task's screen for the observation the task was made from.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { STICKY_TRAP_CATEGORY } from '../../../common/messages/forms';
import { type FormResponse, originalAnswers, type ResponseImage } from '../../api/form-responses';
import { reachedServer } from '../../api/records';
import { translateMessage } from '../../i18n/messages';
import { useSyncStatus } from '../../sync/sync-store';
import { categoryName } from '../forms/texts';
import { useStoredImage } from '../rooms/hooks';
import { type CompanyDoc, userName, when } from '../rooms/model';
import './corrections.css';
import './observations.css';
import { observationsTexts } from './texts';

/** `children`: what may be done with the response (e.g. make a task of it), under its answers. */
export function ResponseCard({ response, company, children }: { response: FormResponse; company: CompanyDoc | null; children?: ReactNode }) {
  const { t } = useTranslation(observationsTexts);
  const sticky = response.FormCategory === STICKY_TRAP_CATEGORY;
  const who = userName(company, response.SubmittedBy) ?? t('card.unknownUser');
  const answers = response.fieldResponses.filter((answer) => answer.FieldType !== 'Image');
  // A corrected answer shows what it was submitted as (CorrectResponse.tsx keeps the whole history).
  const originals = originalAnswers(response.corrections ?? []);
  const refused = useSyncStatus((status) => status.failed.find((entry) => entry.creates.some((clientId) => clientId === response.ResponseID))?.error ?? null);
  return (
    <li className={`response${sticky ? ' sticky-trap' : ''}`} aria-label={`${response.TemplateName}, ${when(response.SubmittedAt)}`}>
      <div className="response-head">
        <h3>{response.TemplateName}</h3>
        <span className={`tag${sticky ? ' sticky-tag' : ''}`}>{sticky ? t('card.stickyTrap') : categoryName(response.FormCategory)}</span>
        {originals.size > 0 && <span className="tag corrected-tag">{t('card.corrected')}</span>}
        {/* Made on this tablet and not on the server yet; refused, it says so (the sync indicator offers retry and discard). */}
        {refused ? (
          <span className="chip refused" title={translateMessage(refused)}>
            {t('card.notAccepted', { reason: translateMessage(refused) })}
          </span>
        ) : (
          !reachedServer(response) && <span className="chip waiting">{t('card.waiting')}</span>
        )}
      </div>
      <p className="muted">
        {when(response.SubmittedAt)} · {who}
      </p>
      {answers.length > 0 && (
        <dl className="answers">
          {answers.map((answer) => (
            <Answer key={String(answer.FieldID)} name={answer.FieldName}>
              {answer.InputData?.trim() ? answer.InputData : <span className="muted">—</span>}
              {originals.has(String(answer.FieldID)) && (
                <span className="answer-original">
                  {' '}
                  {t('card.submittedAs', { value: originals.get(String(answer.FieldID))?.trim() || t('card.blank') })}
                </span>
              )}
            </Answer>
          ))}
        </dl>
      )}
      {response.images.length > 0 && (
        <div className="response-images">
          {response.images.map((image, index) => (
            <ResponsePhoto key={`${String(image.ImageID ?? 'pending')}-${index}`} image={image} name={response.fieldResponses.find((answer) => String(answer.FieldID) === String(image.FieldID))?.FieldName ?? response.TemplateName} />
          ))}
        </div>
      )}
      {children}
    </li>
  );
}

function Answer({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function ResponsePhoto({ image, name }: { image: ResponseImage; name: string }) {
  const { t } = useTranslation(observationsTexts);
  const stored = useStoredImage(image.pending ? null : image.ImagePath);
  if (image.pending || !image.ImagePath) return <p className="photo-pending">{t('card.photoWaiting')}</p>;
  if (stored.error) return <p className="muted">{t('card.photoUnavailable', { reason: translateMessage(stored.error) })}</p>;
  if (!stored.url) return <p className="muted">{t('card.loadingPhoto')}</p>;
  return <img className="response-photo" src={stored.url} alt={t('card.photoOf', { name })} />;
}
