import { createFileRoute } from '@tanstack/react-router';
import { VideoCaptureScreen } from '../../features/video-capture/VideoCaptureScreen';

/** Recording a short video of a box or a row, uploaded when the network allows (issue 17). */
export const Route = createFileRoute('/dashboard/videoCapture')({ component: VideoCaptureScreen });
