/** Everything a resolver, route or job can use, built once per process by buildApp(). */
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/types.js';
import type { Storage } from '../storage/storage.js';
import type { Mailer } from '../mail/mailer.js';
import type { JobQueue } from '../jobs/queue.js';
import type { EventBus } from '../events/event-bus.js';
import type { TokenService } from '../auth/tokens.js';
import type { HumanCheck } from '../auth/human-check.js';
import type { FastifyBaseLogger } from 'fastify';

export interface Services {
  config: Config;
  database: Db;
  db: Kysely<Database>;
  storage: Storage;
  mailer: Mailer;
  queue: JobQueue;
  events: EventBus;
  tokens: TokenService;
  humanCheck: HumanCheck;
  log: FastifyBaseLogger;
}
