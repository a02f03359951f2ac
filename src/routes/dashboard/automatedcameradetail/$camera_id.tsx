import { createFileRoute } from '@tanstack/react-router';
import { CameraDetailScreen } from '../../../features/cameras/CameraDetailScreen';

export const Route = createFileRoute('/dashboard/automatedcameradetail/$camera_id')({
  component: function CameraDetailRoute() {
    const { camera_id } = Route.useParams();
    return <CameraDetailScreen cameraId={camera_id} />;
  },
});
