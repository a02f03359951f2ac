import { createFileRoute } from '@tanstack/react-router';
import { CompanyScreen } from '../../features/company/CompanyScreen';

/** The company, its users, and (Admins) invitations (spec part 1 §2, §3; part 2 §7). */
export const Route = createFileRoute('/dashboard/company')({ component: CompanyScreen });
