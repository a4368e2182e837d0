/** Every plain HTTP route (outside GraphQL). Each domain registers its own. */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/services.js';
import { registerHealthRoutes } from './health.js';
import { registerDevOutbox } from './dev-outbox.js';
import { registerDevClock } from './dev-clock.js';
import { registerStatic } from './static.js';
import { registerUploadRoutes } from './upload.js';
import { registerMediaRoutes } from './media.js';

export async function registerRoutes(app: FastifyInstance, services: Services): Promise<void> {
  await (await import('./security.js')).registerSecurity(app, services);
  await registerHealthRoutes(app, services);
  await registerDevOutbox(app, services);
  await registerDevClock(app, services);
  await (await import('./oauth.js')).registerAuthRoutes(app, services);
  await registerUploadRoutes(app, services);
  await registerMediaRoutes(app, services);
  await (await import('./tour-viewer-ws.js')).registerTourViewerWs(app, services);
  await (await import('./billing.js')).registerBillingRoutes(app, services);
  await (await import('./stripe-webhook.js')).registerStripeWebhook(app, services);
  await (await import('./ai-edit.js')).registerAiEditRoutes(app, services);
  await (await import('./tour-visit.js')).registerTourVisitRoute(app, services);
  await (await import('./lead-gate-page.js')).registerLeadGatePage(app, services);
  await (await import('./public-tour-cache.js')).registerPublicTourCache(app, services);
  await (await import('./personal-data.js')).registerPersonalDataRoutes(app, services);
  await (await import('./share-page.js')).registerSharePage(app, services);
  await (await import('./oembed.js')).registerOembed(app, services);
  await (await import('./sitemap.js')).registerSitemap(app, services);
  await (await import('./flyer.js')).registerFlyerRoute(app, services);
  // Keep last: its not-found handler sends client-side routes to the console.
  await registerStatic(app, services);
}
