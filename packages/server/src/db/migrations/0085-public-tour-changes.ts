import { sql, type Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * The public tour answer is cached on every API node (http/public-tour-cache.ts). Whatever changes what it shows — the
 * tour row (title, status, thumbnail, view counts), its clips or markers, or an owner's profile, user or company —
 * sends a NOTIFY on the events channel from the database itself, so every node drops its copy whoever made the change.
 * Payload: the tour id, or '*' (profiles, users, companies: every copy).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One statement (its body holds semicolons that runScript would split on).
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION roomwalk_public_tour_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE tid text;
    BEGIN
      IF TG_TABLE_NAME = 'tours' THEN
        tid := COALESCE(NEW.id, OLD.id)::text;
      ELSIF TG_TABLE_NAME IN ('markers', 'clips') THEN
        tid := COALESCE(NEW.tour_id, OLD.tour_id)::text;
      ELSE
        tid := '*';
      END IF;
      PERFORM pg_notify('roomwalk_events', json_build_object('topic', 'publicTourChanged', 'payload', tid)::text);
      RETURN NULL;
    END $$`,
    )
    .execute(db);
  await runScript(
    db,
    `
    CREATE TRIGGER tours_public_changed AFTER INSERT OR UPDATE OR DELETE ON tours FOR EACH ROW EXECUTE FUNCTION roomwalk_public_tour_changed();
    CREATE TRIGGER markers_public_changed AFTER INSERT OR UPDATE OR DELETE ON markers FOR EACH ROW EXECUTE FUNCTION roomwalk_public_tour_changed();
    CREATE TRIGGER clips_public_changed AFTER INSERT OR UPDATE OR DELETE ON clips FOR EACH ROW EXECUTE FUNCTION roomwalk_public_tour_changed();
    CREATE TRIGGER user_profiles_public_changed AFTER INSERT OR UPDATE OR DELETE ON user_profiles FOR EACH STATEMENT EXECUTE FUNCTION roomwalk_public_tour_changed();
    CREATE TRIGGER users_public_changed AFTER UPDATE OF username OR DELETE ON users FOR EACH STATEMENT EXECUTE FUNCTION roomwalk_public_tour_changed();
    CREATE TRIGGER companies_public_changed AFTER UPDATE OR DELETE ON companies FOR EACH STATEMENT EXECUTE FUNCTION roomwalk_public_tour_changed();
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    DROP TRIGGER IF EXISTS tours_public_changed ON tours;
    DROP TRIGGER IF EXISTS markers_public_changed ON markers;
    DROP TRIGGER IF EXISTS clips_public_changed ON clips;
    DROP TRIGGER IF EXISTS user_profiles_public_changed ON user_profiles;
    DROP TRIGGER IF EXISTS users_public_changed ON users;
    DROP TRIGGER IF EXISTS companies_public_changed ON companies;
    DROP FUNCTION IF EXISTS roomwalk_public_tour_changed();
    `,
  );
}
