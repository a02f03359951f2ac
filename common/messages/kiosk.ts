/** Messages of a shared kiosk tablet (src/api/kiosk.ts); the spec has no kiosk, so these are ours. */
export const kioskMessages = {
  signInFirst: 'Sign in first.',
  pinFormat: 'A PIN is 4 to 8 digits.',
  setPinFirst: 'Set a PIN first, so you can come back to this tablet without your password.',
  noPin: 'This user has no PIN on this tablet. Sign in with the password.',
  locked: 'Too many wrong PINs. Sign in with your password.',
  signedOut: 'This user signed out. Sign in with the password.',
  wrongPin: (left: number) => `Wrong PIN. ${left} ${left === 1 ? 'try' : 'tries'} left.`,
  unnamed: (userId: number) => `User ${userId}`,
} as const;
