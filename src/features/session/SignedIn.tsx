/**
 * Renders a dashboard screen once the signed-in user is known (the session is read asynchronously),
 * so the screen's local queries start with the right company instead of flashing an empty state.
 */
import { type SignedInUser, useSignedInUser } from '../../app/hooks';
import type { ReactNode } from 'react';
import { Screen } from '../shell/Screen';

export function SignedIn({ title, children }: { title: string; children: (user: SignedInUser) => ReactNode }) {
  const user = useSignedInUser();
  return user ? children(user) : <Screen title={title} loading />;
}
