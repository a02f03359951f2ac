import { createFileRoute } from '@tanstack/react-router';
import { CamerasScreen } from '../../features/cameras/CamerasScreen';

// Every member sees the company's cameras and their images; only Admins change them (the screen says so).
export const Route = createFileRoute('/dashboard/automatedcameras')({
  component: CamerasScreen,
});
