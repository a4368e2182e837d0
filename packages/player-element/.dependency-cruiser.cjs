/**
 * The player's import rule (checked by src/import-rules.unit.test.ts): no import circle, type-only imports included.
 * The drawer and the editing chunk meet in markers/ (types and rules) and editing/host.ts (what the chunk needs of the
 * player), never in each other's classes.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle, type-only imports included.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
