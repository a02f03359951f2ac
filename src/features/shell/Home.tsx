import { Link } from '@tanstack/react-router';
import { session } from '../../app/services';
import { homeOf } from '../../app/home';
import { useTranslation } from 'react-i18next';
import { shellTexts } from './texts';

export function Home() {
  const { t } = useTranslation(shellTexts);
  const signedIn = session.isLoggedIn();
  return (
    <main className="page narrow">
      <h1>{t('brand')}</h1>
      <p>{t('home.about')}</p>
      {signedIn ? (
        <Link className="button primary" to={homeOf(session.role())}>
          {t('home.openDashboard')}
        </Link>
      ) : (
        <Link className="button primary" to="/signIn">
          {t('home.signIn')}
        </Link>
      )}
    </main>
  );
}
