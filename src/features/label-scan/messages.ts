/**
 * Every text the label scanner shows, in one table (client-only: the server never says these). The
 * scanner always says what it is doing, so a grower holding a tablet to a label knows whether to wait,
 * move closer, or take a photo instead.
 */
export const labelScanMessages = {
  title: 'Scan a label',
  starting: 'Starting the camera…',
  scanning: 'Hold the batch’s QR label inside the frame. It opens by itself when it is read.',
  noCamera: 'This tablet has no camera the app can use. Take a photo of the label instead.',
  refused: 'The camera may not be used: permission was refused. Allow the camera for this site in the browser’s settings, or take a photo of the label.',
  cameraBusy: 'The camera could not start: another app may be using it. Close that app and try again, or take a photo of the label.',
  insecure: 'The camera needs a secure (https) connection to this app. Take a photo of the label instead.',
  tryCameraAgain: 'Try the camera again',
  takePhoto: 'Take a photo of the label',
  readingPhoto: 'Reading the photo…',
  notAnImage: 'This file is not a photo the tablet can read.',
  noCodeInPhoto: 'No QR code was found in the photo. Take it again closer, with the label flat and well lit.',
  notALabel: 'This code is not a batch label.',
  notOnTablet: 'This batch label was read, but the batch is not on this tablet. It may have been deleted, or it belongs to another company.',
  noSession: 'This tablet has no signed-in company. Sign in again to scan labels.',
  opening: (batchNumber: string) => `Opening batch ${batchNumber}…`,
  storeUnreadable: (reason: string) => `This tablet’s copy of the batches could not be read: ${reason}`,
} as const;
