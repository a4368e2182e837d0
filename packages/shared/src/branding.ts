/**
 * Custom Company Branding (Basic, Pro, Offline License): the company's logo as the tours' intro logo and its accent
 * colour.
 */
import { FEATURES, planById } from './plans.js';

export const BRANDING_TEXTS = {
  accentInvalid: 'Accent colour must be a hex colour like #1565C0.',
  accentTooLight: 'This accent colour is too light for white text. Choose a darker one (contrast of at least 4.5:1).',
  planHint: 'Custom Company Branding is available for Basic, Pro and Offline License plans',
} as const;

export const ACCENT_COLOR_PATTERN = /^#[0-9a-f]{6}$/i;
/** WCAG AA for normal text: the player draws white text on the accent (buttons). */
export const ACCENT_MIN_CONTRAST = 4.5;

const channel = (v: number): number => {
  const c = v / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** Contrast ratio of white text on a #rrggbb colour (1 to 21). */
export function contrastWithWhite(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  const l = 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
  return 1.05 / (l + 0.05);
}

/** The problem with an accent colour in the user's words, or null when it is usable. */
export function accentColorProblem(value: string): string | null {
  if (!ACCENT_COLOR_PATTERN.test(value)) return BRANDING_TEXTS.accentInvalid;
  if (contrastWithWhite(value) < ACCENT_MIN_CONTRAST) return BRANDING_TEXTS.accentTooLight;
  return null;
}

/** True when a plan id carries Custom Company Branding. */
export const planHasBranding = (planId: string | null | undefined): boolean =>
  !!planId && !!planById(planId)?.features.includes(FEATURES.customBranding);
