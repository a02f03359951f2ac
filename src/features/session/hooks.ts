/** The signed-in user for the screens of the settings, profile, company and trays areas. */
import { useEffect, useState } from 'react';
import type { Role } from '../../../common/roles';
import { session } from '../../app/services';

export interface SignedInUser {
  userId: number;
  companyId: number;
  role: Role | null;
  /** Admin and SuperAdmin change settings, invite, and delete (the server's `admin` access). */
  isAdmin: boolean;
}

/** The signed-in user (null until the session is read; the dashboard's guard already required one). */
export function useSignedInUser(): SignedInUser | null {
  const [user, setUser] = useState<SignedInUser | null>(null);
  useEffect(() => {
    let alive = true;
    void session.get().then((current) => {
      if (!alive || !current) return;
      const role = session.role();
      setUser({ userId: current.user_id, companyId: current.company_id, role, isAdmin: role === 'Admin' || role === 'SuperAdmin' });
    });
    return () => {
      alive = false;
    };
  }, []);
  return user;
}
