/**
 * The server's import rules (docs/code-map.md): no import circles, and each floor imports only floors below it:
 *   app, main, index, cli → http, jobs → graphql → services → storage, auth, mail, events, the queue and job modules
 *   → media, db → core, config
 * Two exceptions: the queue (`jobs/queue.ts`, `jobs/job-lease.ts`, the progress reporter `jobs/progress-reporter.ts`)
 * and the job modules (`jobs/*-job.ts`, `jobs/*-jobs.ts`: queue name, payload, options, enqueue, register) sit on the
 * storage floor (what services may start and report through; the work a handler does is a service's, wired to its
 * queue in `jobs/workers.ts`; processing's pipeline still lives on the jobs floor, `jobs/process-*.ts`), and any
 * module may name the `Services` container's type (services/services.ts, a type-only import: no runtime coupling).
 * Two more: only jobs/queue.ts imports pg-boss, and only the migrator (db/migrations/index.ts) imports a migration.
 * test/architecture.test.ts runs these rules in `npm test`; `npx depcruise src -c .dependency-cruiser.cjs` lists
 * what breaks them.
 */
const floors = [
  ['core', ['^src/core/', '^src/config\\.ts$']],
  ['media and db', ['^src/media/', '^src/db/']],
  [
    'storage, auth, mail, events and the job queue',
    [
      '^src/storage/',
      '^src/auth/',
      '^src/mail/',
      '^src/events/',
      '^src/jobs/(queue|job-lease|progress-reporter|[a-z-]+-jobs?)\\.ts$',
    ],
  ],
  ['services', ['^src/services/']],
  ['graphql', ['^src/graphql/']],
  ['http and jobs', ['^src/http/', '^src/jobs/']],
  ['the app', ['^src/(app|api|main|index)\\.ts$', '^src/cli/']],
];
const any = (paths) => paths.map((p) => `(${p})`).join('|');
const lower = (i) => floors.slice(0, i + 1).flatMap(([, p]) => p);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import circle between server modules. A circle through the Services container (services/services.ts) is not one: the container names types only (services-container-names-types-only), which vanish at run time.',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { pathNot: '^src/services/services\\.ts$' } },
    },
    ...floors.slice(0, -1).map(([name, paths], i) => ({
      name: `${name.replace(/[^a-z]+/g, '-')}-imports-upward`,
      severity: 'error',
      comment: `${name} may import only itself and the floors below it.`,
      // The Services container declares what a process holds, whatever floor made it (types only: the rule below).
      from: { path: any(paths), pathNot: '^src/services/services\\.ts$' },
      to: { pathNot: any([...lower(i), '^src/services/services\\.ts$', 'node_modules/']) },
    })),
    {
      name: 'graphql-reads-through-services',
      severity: 'error',
      comment:
        'Resolvers call services (docs/code-map.md); graphql/ names db/ row types only, it never opens or queries the database.',
      from: { path: '^src/graphql/' },
      to: { path: '^src/db/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'pg-boss-only-in-the-queue',
      severity: 'error',
      comment:
        'Only the queue module (jobs/queue.ts) speaks to pg-boss; everything else goes through JobQueue and the job modules.',
      from: { path: '^src/', pathNot: '^src/jobs/queue\\.ts$' },
      to: { path: 'node_modules/pg-boss/' },
    },
    {
      name: 'no-migration-imports',
      severity: 'error',
      comment:
        'Only the migrator (db/migrations/index.ts) imports a migration; table types live in db/types.ts and db/tables/.',
      from: { path: '^src/', pathNot: '^src/db/migrations/index\\.ts$' },
      to: { path: '^src/db/migrations/(?!index\\.ts$)' },
    },
    {
      name: 'services-container-names-types-only',
      severity: 'error',
      comment: 'The Services container (services/services.ts) imports types only: it declares, it never runs anything.',
      from: { path: '^src/services/services\\.ts$' },
      to: { dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'services-container-type-only',
      severity: 'error',
      comment: 'Below the services floor, the Services container is named as a type only.',
      from: { path: any(lower(2)) },
      to: { path: '^src/services/services\\.ts$', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // pg-boss is kept in the graph (as a leaf) for the pg-boss-only-in-the-queue rule.
    includeOnly: '^src/|node_modules/pg-boss/',
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
