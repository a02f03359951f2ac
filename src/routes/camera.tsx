import { createFileRoute } from '@tanstack/react-router';
import { CameraPage } from '../features/cameras/CameraPage';

// The phone camera's page (issue 17): public, standalone; its device token comes in the address and
// is kept in the browser's storage (features/cameras/device-camera.ts).
export const Route = createFileRoute('/camera')({
  component: CameraPage,
});
