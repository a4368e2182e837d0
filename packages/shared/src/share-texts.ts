/** Share anywhere (issue 41): Tour Info's listing choice and Sharing Options' flyer, as both sides say them. */
export const SHARE_LISTING_TEXTS = {
  legend: 'Search engines',
  label: 'Search engines may show this tour',
  hint: 'Off: the tour is unlisted. Only people with the link find it.',
  notPublic: 'Only a tour anyone with the link can see may be shown by search engines.',
} as const;

export const FLYER_TEXTS = {
  action: 'Print flyer',
  paperSize: 'Paper size',
  a4: 'A4',
  letter: 'US Letter',
  unbranded: 'Unbranded (no company, no agent)',
  scan: 'Scan to walk through',
  rooms: 'Rooms',
  agent: 'Your agent',
  failed: 'The flyer could not be made. Please try again.',
} as const;

/** The flyer's paper sizes (pdfkit's names). */
export const FLYER_SIZES = ['A4', 'LETTER'] as const;
export type FlyerSize = (typeof FLYER_SIZES)[number];
