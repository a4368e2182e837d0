import { MEASURES_OWN_CPU, serverProject } from './vitest.config.js';

/** The server's files that measure their own process's CPU, each in a fresh process (vitest.config.ts). */
export default serverProject('server-isolated', { include: MEASURES_OWN_CPU, exclude: [] }, true);
