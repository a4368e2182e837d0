/**
 * Loads the subscription client (graphql-ws) only when a subscription starts. The script-tag build replaces this module
 * with one that imports `tour-player-subscription.js` next to `tour-player.js` (scripts/build.mjs), so graphql-ws never
 * weighs on the main bundle.
 */
export const loadSubscription = (): Promise<typeof import('./subscription.js')> => import('./subscription.js');
