/**
 * The one zod of the shared schemas, set to run without generated code. Zod otherwise probes `new Function` once, on
 * its first object parse; under a strict Content-Security-Policy (our own player and console pages, many listing
 * sites) that probe is reported as a `script-src eval` violation even though zod catches it. The setting is global to
 * the zod instance, so it also covers the console's own schemas.
 */
import { z } from 'zod';

z.config({ jitless: true });

export { z };
