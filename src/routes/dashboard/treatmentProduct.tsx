import { createFileRoute } from '@tanstack/react-router';
import { TreatmentsScreen } from '../../features/treatments/TreatmentsScreen';

/** Spray products, treatments and sprays on boxes (spec part 2 §3, §7: treatmentProduct). */
export const Route = createFileRoute('/dashboard/treatmentProduct')({ component: TreatmentsScreen });
