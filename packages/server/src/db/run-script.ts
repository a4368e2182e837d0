import { sql, type Kysely } from 'kysely';

/** Runs a multi-statement DDL script one statement at a time (works on PGlite and PostgreSQL alike). */
export async function runScript(db: Kysely<any>, script: string): Promise<void> {
  for (const stmt of script
    .split(/;\s*\n/)
    .map((s) => s.trim())
    .filter(Boolean)) {
    await sql.raw(stmt).execute(db);
  }
}
