/** Messages about uploaded files. */
export const fileMessages = {
  imageRequired: 'An image file is required.',
  imageType: 'Only PNG, JPEG or WebP images are accepted.',
  notFound: 'File not found.',
} as const;
