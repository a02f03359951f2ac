import { Link } from '@tanstack/react-router';
import { session } from '../../app/services';
import { homeOf } from '../../app/home';
import { useTranslation } from 'react-i18next';
import { shellTexts } from './texts';

/** A role that may not see a screen lands here (spec part 1 §2, §6). */
export function Unauthorized() {
  const { t } = useTranslation(shellTexts);
  return (
    <main className="page narrow">
      <h1>{t('unauthorized.title')}</h1>
      <p>{t('unauthorized.text')}</p>
      <Link className="button" to={session.isLoggedIn() ? homeOf(session.role()) : '/signIn'}>
        {t('unauthorized.back')}
      </Link>
    </main>
  );
}
