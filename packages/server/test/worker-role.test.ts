/**
 * A worker process (ROLE=worker) loads jobs, services, storage and its health route, never the GraphQL layer: each role
 * is started in its own process (test/fixtures/role-modules.ts) and the server modules it loaded are compared.
 */
import { describe, expect, it } from 'vitest';
import { jsonLine, startFixture } from './helpers/processes.js';

async function modulesOf(role: 'worker' | 'api'): Promise<string[]> {
  const child = startFixture('role-modules.ts', { ROLE: role }, (line) =>
    jsonLine<{ role: string; modules: string[] }>(line, 'role', 'modules'),
  );
  const { modules } = await child.ready;
  return modules;
}

describe('what each role loads', () => {
  it('a worker loads the job handlers and no module under src/graphql/; an API node loads the schema', async () => {
    const [worker, api] = await Promise.all([modulesOf('worker'), modulesOf('api')]);
    // The check sees modules at all: the API node's schema and the worker's job registration are in the lists.
    expect(api).toContain('src/graphql/schema.ts');
    expect(worker).toContain('src/jobs/workers.ts');
    expect(worker.filter((m) => m.startsWith('src/graphql/'))).toEqual([]);
    expect(worker).not.toContain('src/api.ts');
  }, 120_000);
});
