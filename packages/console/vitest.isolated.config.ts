import { consoleProject, isolatedTestFiles } from './vitest.config.js';

/** The console's files that change modules, globals, the clock or a module-level store, each in a fresh jsdom. */
export default consoleProject('console-isolated', { include: isolatedTestFiles(), exclude: [] }, true);
