/**
 * The bare baseline of bench:api (a child process it starts): the player's tour data from a plain Fastify route over
 * `pg`, no GraphQL, no auth hooks, no security headers. Two routes: /bare/tour/:id (5 statements, 2 round trips: what a
 * plain route serving the same data does) and /bare1/tour/:id (the product's own single statement, PLAYER_TOUR_SQL).
 * Settings from the environment: DATABASE_URL, PORT, PUBLIC_URL (the media base). Prints {"url"} once listening.
 */
import pg from 'pg';

const { PLAYER_TOUR_SQL } = await import('../src/services/public-tour-answer.js');

async function bareServer(): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const publicBase = process.env.PUBLIC_URL!;
  const url = (key: string | null) => (key ? `${publicBase}/media/${key}` : null);
  const app = Fastify({ logger: false });
  app.get<{ Params: { id: string } }>('/bare/tour/:id', async (req) => {
    const id = req.params.id;
    const t = (await pool.query('SELECT * FROM tours WHERE id = $1', [id])).rows[0];
    const [clips, markers, agent, company] = await Promise.all([
      pool.query('SELECT * FROM clips WHERE tour_id = $1 ORDER BY index', [id]),
      pool.query('SELECT * FROM markers WHERE tour_id = $1 ORDER BY frame_index, created_at', [id]),
      pool.query(
        'SELECT u.username, p.name, p.surname, p.contact_number, p.profile_image_key FROM users u LEFT JOIN user_profiles p ON p.user_id = u.id WHERE u.id = $1',
        [t.owner_id],
      ),
      // The company's branding (logo, accent) while its plan has it; the bench's plan has none.
      pool.query(
        'SELECT c.logo_key, c.accent_color, l.plan_id, l.end_date FROM companies c LEFT JOIN licenses l ON l.company_id = c.id WHERE c.id = $1',
        [t.company_id],
      ),
    ]);
    const a = agent.rows[0];
    const c = company.rows[0];
    const branded = c && ['basic', 'pro', 'offline'].includes(c.plan_id) && (!c.end_date || c.end_date > new Date());
    return {
      data: {
        tour: {
          id: `tour_${t.id}`,
          title: t.title,
          description: t.description,
          thumbnailURL: url(t.thumbnail_key),
          tourIntroLogoURL: url(t.intro_logo_key ?? (branded ? c.logo_key : null)),
          tourAccentColor: branded ? c.accent_color : null,
          listingLink: t.listing_link,
          views: t.views,
          status: { status: t.status },
          videoInfo: t.video_info,
          clips: clips.rows.map((c) => ({
            id: `clip_${c.id}`,
            index: c.index,
            frameCount: c.frame_count,
            duration: c.duration,
            highURI: url(c.high_key),
            lowURI: url(c.low_key),
          })),
          markers: markers.rows.map((m) => ({
            id: `marker_${m.id}`,
            name: m.name,
            description: m.description,
            tourId: `tour_${t.id}`,
            scrollPosition: m.scroll_position,
            frameIndex: m.frame_index,
            isFastTravel: m.is_fast_travel,
          })),
          agentProfile: a
            ? {
                fullname: [a.name, a.surname].filter(Boolean).join(' '),
                contactNumber: a.contact_number,
                email: a.username,
                profileImageURL: url(a.profile_image_key),
              }
            : null,
          // The player asks for the lead gate too; the benchmark's tour has none.
          leadGate: null,
        },
      },
    };
  });
  // The same data from the product's one statement (services/public-tour-answer.ts PLAYER_TOUR_SQL): the baseline doing
  // the same database work as the player's GET miss, so the ratio to it is what Roomwalk adds around that statement.
  app.get<{ Params: { id: string } }>('/bare1/tour/:id', async (req) => {
    const r = (await pool.query(PLAYER_TOUR_SQL, [req.params.id])).rows[0];
    const branded =
      ['basic', 'pro', 'offline'].includes(r.rw_plan_id) && (!r.rw_end_date || r.rw_end_date > new Date());
    const tourId = `tour_${r.id}`;
    return {
      data: {
        tour: {
          id: tourId,
          title: r.title,
          description: r.description,
          thumbnailURL: url(r.thumbnail_key),
          tourIntroLogoURL: url(r.intro_logo_key ?? (branded ? r.rw_logo_key : null)),
          tourAccentColor: branded ? r.rw_accent_color : null,
          listingLink: r.listing_link,
          views: r.views,
          status: { status: r.status },
          videoInfo: r.video_info,
          clips: (r.rw_clips ?? []).map((c: unknown[]) => ({
            id: `clip_${c[0]}`,
            index: c[1],
            frameCount: c[2],
            duration: c[3],
            highURI: url(c[4] as string),
            lowURI: url(c[5] as string),
          })),
          markers: (r.rw_markers ?? []).map((m: unknown[]) => ({
            id: `marker_${m[0]}`,
            name: m[1],
            description: m[2],
            tourId,
            scrollPosition: m[3],
            frameIndex: m[4],
            isFastTravel: m[5],
          })),
          agentProfile:
            r.rw_username !== null
              ? {
                  fullname: [r.rw_name, r.rw_surname].filter(Boolean).join(' '),
                  contactNumber: r.rw_contact_number,
                  email: r.rw_username,
                  profileImageURL: url(r.rw_profile_image_key),
                }
              : null,
          leadGate: null,
        },
      },
    };
  });
  const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
  process.stdout.write(`${JSON.stringify({ url: address })}\n`);
  process.on(
    'SIGTERM',
    () =>
      void app
        .close()
        .then(() => pool.end())
        .then(() => process.exit(0)),
  );
}

await bareServer();
