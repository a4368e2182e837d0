import type { PropertyDeclaration } from 'lit';
import { ATTRIBUTES } from '../constants.js';

/** hi-res is on unless the attribute says "false" (the share pages map hiRes=false onto it). */
const hiResConverter = {
  fromAttribute: (v: string | null) => v === null || v.toLowerCase() !== 'false',
  toAttribute: (v: boolean) => (v ? null : 'false'),
};
type AttributeProperty = (typeof ATTRIBUTES)[keyof typeof ATTRIBUTES];
/** Attribute types beyond the default String; the names come from ATTRIBUTES (constants.ts), the one list. */
const ATTRIBUTE_TYPES: Partial<Record<AttributeProperty, PropertyDeclaration>> = {
  hiRes: { converter: hiResConverter },
  liveViewing: { type: Boolean },
  hostEvents: { type: Boolean },
  debug: { type: Boolean },
  superAdmin: { type: Boolean },
  unbranded: { type: Boolean },
  startFrame: { type: Number },
};

const readMetaApi = (): string | undefined =>
  document.querySelector<HTMLMetaElement>('meta[name="roomwalk-api"]')?.content || undefined;

/** The origin of the script that defined the element, when it was loaded by a script tag. */
const scriptOrigin = (() => {
  try {
    return new URL((document.currentScript as HTMLScriptElement | null)?.src || import.meta.url).origin;
  } catch {
    return location.origin;
  }
})();

/**
 * `<tour-player>`'s reactive properties: one per ATTRIBUTES entry (the one list of attributes), plus the two properties
 * without an attribute.
 */
export const PLAYER_PROPERTIES: Record<string, PropertyDeclaration> = {
  ...Object.fromEntries(
    Object.entries(ATTRIBUTES).map(([attribute, name]) => [
      name,
      { type: String, attribute, ...ATTRIBUTE_TYPES[name] },
    ]),
  ),
  authToken: { attribute: false },
  loadingTimeoutMs: { attribute: false },
};

/**
 * The server base: the `api` attribute, else `<meta name="roomwalk-api">`, else the origin of the script that defined
 * the element.
 */
export function defaultApiBase(api: string): string {
  return (api || readMetaApi() || scriptOrigin).replace(/\/$/, '');
}
