/**
 * An unmatched path (spec part 1 §2): signed in, the redirect screen sends Admin users to /dashboard
 * and others to /dashboard/quickview; signed out, the not-found text.
 */
import { Navigate } from '@tanstack/react-router';
import { session } from '../../app/services';
import { homeOf } from '../../app/home';
import { useTranslation } from 'react-i18next';
import { appTexts } from '../../app/texts';

export function NotFound() {
  const { t } = useTranslation(appTexts);
  if (session.isLoggedIn()) return <Navigate to={homeOf(session.role())} replace />;
  return (
    <main className="page narrow">
      {/* The spec's text is the page's one heading: every page has a level-1 heading to land on. */}
      <h1 className="not-found">{t('notFound')}</h1>
    </main>
  );
}
