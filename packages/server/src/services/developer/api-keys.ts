/**
 * API keys: `rw_live_<random>` secrets a Pro company's integration sends as `Authorization: Bearer …` on
 * /query. Only a SHA-256 of the secret is stored (the secret is answered once, at creation); `prefix` (the first 12
 * characters) lets people recognise a key. A key acts as its company: company-wide tour rights, never super admin,
 * and only the operations in API_KEY_OPERATIONS (graphql/api-key-scope.ts). Every request reads the key row, so a
 * revoked key, or a company whose plan no longer includes the API, is refused at once on every node.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ERROR_CODES } from '@roomwalk/shared';
import { sql } from 'kysely';
import type { AuthInfo } from '../../core/auth.js';
import { AppError, badInput, forbidden, notFound } from '../../core/errors.js';
import { getLicense, rolesFor } from '../licenses.js';
import type { Services } from '../services.js';
import { PLAN_REQUIRED_TEXT, hasApiPlan, requireApiPlan } from './plan.js';
import type { ApiKeyRow } from '../../db/tables/developer.js';
import { serverNow } from '../../core/clock.js';

const API_KEY_PREFIX = 'rw_live_';
const SHOWN_PREFIX_LENGTH = 12;
/** lastUsedAt is written at most this often per key and node. */
const LAST_USED_RESOLUTION_MS = 60_000;
const NAME_MAX = 100;

export const isApiKeyToken = (token: string): boolean => token.startsWith(API_KEY_PREFIX);
const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** The caller must be an admin of a company on a plan with APIs & Webhooks, signed in (never with a key). */
export async function requireKeyManager(services: Services, auth: AuthInfo): Promise<void> {
  if (auth.apiKeyId) throw forbidden('API keys cannot manage API keys or webhooks.');
  if (!auth.isCompanyAdmin) throw forbidden('Only company admins can manage APIs & Webhooks.');
  await requireApiPlan(services.db, auth.companyId, serverNow(services));
}

export async function listApiKeys(services: Services, auth: AuthInfo): Promise<ApiKeyRow[]> {
  await requireKeyManager(services, auth);
  return services.db
    .selectFrom('api_keys')
    .selectAll()
    .where('company_id', '=', auth.companyId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .execute();
}

export async function createApiKey(
  services: Services,
  auth: AuthInfo,
  input: { name: string },
): Promise<{ apiKey: ApiKeyRow; secret: string }> {
  await requireKeyManager(services, auth);
  const name = (input.name ?? '').trim();
  if (!name) throw badInput('Give the key a name, for example the system that will use it.', 'name');
  if (name.length > NAME_MAX) throw badInput(`The name can be at most ${NAME_MAX} characters.`, 'name');
  const secret = `${API_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
  const apiKey = await services.db
    .insertInto('api_keys')
    .values({
      company_id: auth.companyId,
      created_by: auth.userId,
      name,
      prefix: secret.slice(0, SHOWN_PREFIX_LENGTH),
      secret_hash: hashSecret(secret),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { apiKey, secret };
}

export async function revokeApiKey(services: Services, auth: AuthInfo, id: string): Promise<ApiKeyRow> {
  await requireKeyManager(services, auth);
  const revoked = await services.db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where('id', '=', id)
    .where('company_id', '=', auth.companyId)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!revoked) throw notFound('This API key was not found. It may have been revoked already.');
  return revoked;
}

/**
 * The caller an API key stands for, or null when the key is unknown or revoked (the request answers 401). A key of a
 * company whose plan lost APIs & Webhooks answers PLAN_REQUIRED (it works again after an upgrade).
 */
export async function authenticateApiKey(services: Services, token: string): Promise<AuthInfo | null> {
  if (!isApiKeyToken(token) || token.length > 200) return null;
  const db = services.db;
  const key = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('secret_hash', '=', hashSecret(token))
    .executeTakeFirst();
  if (!key || key.revoked_at) return null;
  if (!(await hasApiPlan(services.db, key.company_id, serverNow(services))))
    throw new AppError(ERROR_CODES.PLAN_REQUIRED, PLAN_REQUIRED_TEXT);
  // The key acts as its company with the current rights of the admin who created it: a demoted creator's key loses
  // admin rights with them, and the key stops when its creator leaves the company (or the account is deleted).
  const user = key.created_by
    ? await services.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', key.created_by)
        .where('company_id', '=', key.company_id)
        .executeTakeFirst()
    : undefined;
  if (!user) return null;
  const license = await getLicense(services.db, key.company_id);
  touchLastUsed(services, key.id);
  return {
    userId: user.id,
    companyId: key.company_id,
    roles: rolesFor({ role: user.role, is_superadmin: false }, license, serverNow(services)),
    isCompanyAdmin: user.role === 'ADMIN',
    isSuperAdmin: false,
    apiKeyId: key.id,
  };
}

function touchLastUsed(services: Services, keyId: string): void {
  const written = services.apiKeyLastUsed;
  const now = Date.now();
  if (now - (written.get(keyId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
  written.set(keyId, now);
  if (written.size > 10_000) written.clear();
  void services.db
    .updateTable('api_keys')
    .set({ last_used_at: sql<Date>`now()` })
    .where('id', '=', keyId)
    .where((eb) =>
      eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', sql<Date>`now() - interval '1 minute'`)]),
    )
    .execute()
    .catch((err: unknown) => services.log.warn({ err }, 'api key: lastUsedAt not written'));
}
