/** Shoelace icons the console uses; the build copies exactly these into dist/shoelace (no CDN). */
export const ICON_NAMES = [
  'arrow-left',
  'check-lg',
  'x-lg',
  'chat-left-text',
  'google',
  'envelope',
  'people',
  'file-earmark-bar-graph',
  'arrow-up-circle',
  'pencil',
  'box-arrow-right',
  'plus-lg',
  'exclamation-triangle',
  'info-circle',
  'check-circle',
  'exclamation-octagon',
  'person-circle',
  'download',
  'clipboard',
  // Tours screens (Console part 2)
  'trash', 'share', 'qr-code', 'link-45deg', 'play-fill', 'stop-fill', 'film', 'image', 'magic', 'upload', 'chevron-left', 'chevron-right',
  // APIs & Webhooks (issue 20)
  'code-slash', 'send', 'eye', 'arrow-repeat', 'arrow-clockwise', 'hourglass-split',
] as const;
export type IconName = (typeof ICON_NAMES)[number];
