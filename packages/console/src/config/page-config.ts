/** Settings the page carries in meta tags, so one build serves any deployment. */

/** Meta tag names read by the console. */
const META = {
  serverUrl: 'roomwalk-server-url',
  turnstileSiteKey: 'roomwalk-turnstile-site-key',
  manageSubscriptionUrl: 'roomwalk-manage-subscription-url',
  analyticsToken: 'roomwalk-analytics-token',
} as const;

export function readMeta(name: string, doc: Document = document): string {
  return doc.querySelector(`meta[name="${name}"]`)?.getAttribute('content')?.trim() ?? '';
}

/** The API origin: the meta tag when set, else the page's own origin. */
export function serverUrl(doc: Document = document): string {
  const configured = readMeta(META.serverUrl, doc);
  return (configured || doc.defaultView?.location.origin || window.location.origin).replace(/\/+$/, '');
}

/** The graphql-ws address: the API origin with a websocket scheme, on /query. */
export function websocketUrl(doc: Document = document): string {
  return `${serverUrl(doc).replace(/^http/, 'ws')}/query`;
}

export const turnstileSiteKey = (doc: Document = document): string => readMeta(META.turnstileSiteKey, doc);
export const manageSubscriptionUrl = (doc: Document = document): string => readMeta(META.manageSubscriptionUrl, doc);
export const analyticsToken = (doc: Document = document): string => readMeta(META.analyticsToken, doc);
