/** Account helpers for integration tests: sign up, read mails from the outbox, log in, send multipart uploads. */
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { vi } from 'vitest';
import { DEV_TURNSTILE_TOKEN, OAUTH_CLIENT } from '@roomwalk/shared';
import type { TestApp } from './test-app.js';

export const PASSWORD = 'Secret123';

export const basicClientHeader = (id: string = OAUTH_CLIENT.id, secret: string = OAUTH_CLIENT.secret) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

export const uniqueEmail = (prefix = 'user') => `${prefix}-${randomBytes(5).toString('hex')}@example.com`;

export interface RegisterVars {
  username: string;
  password?: string;
  name?: string;
  surname?: string;
  contactNumber?: string | null;
  inviteToken?: string | null;
  referredBy?: string | null;
  turnstileToken?: string;
  acceptedTerms?: boolean;
}

export const REGISTER = `mutation($input: UserRegisterInput!) { userRegister(input: $input) { id username } }`;

export function registerInput(v: RegisterVars) {
  return {
    username: v.username,
    password: v.password ?? PASSWORD,
    name: v.name ?? 'Thandi',
    surname: v.surname ?? 'Nkosi',
    contactNumber: v.contactNumber === undefined ? '082 123 4567' : v.contactNumber,
    inviteToken: v.inviteToken ?? null,
    referredBy: v.referredBy ?? null,
    turnstileToken: v.turnstileToken ?? DEV_TURNSTILE_TOKEN,
    acceptedTerms: v.acceptedTerms ?? true,
  };
}

export async function register(t: TestApp, v: RegisterVars) {
  return t.gql(REGISTER, { input: registerInput(v) });
}

export interface OutboxMail {
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  links: string[];
}

/** Waits (bounded) for the mail job to land in the development outbox. */
export async function waitForMail(t: TestApp, to: string, subject: RegExp, after = 0): Promise<OutboxMail> {
  return vi.waitFor(
    async () => {
      const rows = await t.app.services.db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('to_address', '=', to)
        .orderBy('created_at')
        .execute();
      const found = rows.filter((r) => subject.test(r.subject));
      if (found.length <= after) throw new Error(`no mail "${subject}" to ${to} yet`);
      return found[after] as unknown as OutboxMail;
    },
    { timeout: 15_000, interval: 50 },
  );
}

export const tokenFromLink = (link: string, param = 'token') => new URL(link).searchParams.get(param)!;

export async function login(
  t: TestApp,
  username: string,
  password: string = PASSWORD,
  authorization: string = basicClientHeader(),
) {
  const res = await fetch(`${t.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify({ username, password, grant_type: 'password' }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** Signs up, activates through the mailed link and logs in: a ready account. */
export async function signUpActivated(t: TestApp, v: RegisterVars) {
  const reg = await register(t, v);
  if (reg.errors) throw new Error(JSON.stringify(reg.errors));
  const mail = await waitForMail(t, v.username, /Activate/);
  const act = await t.gql(`mutation($token: String!) { userActivation(token: $token) { id } }`, {
    token: tokenFromLink(mail.links[0]!),
  });
  if (act.errors) throw new Error(JSON.stringify(act.errors));
  const { body } = await login(t, v.username, v.password ?? PASSWORD);
  return { userId: reg.data.userRegister.id as string, token: body.access_token as string };
}

/** A GraphQL multipart request (graphql-multipart-request-spec) with files at the given variable paths. */
export async function gqlUpload(
  t: TestApp,
  query: string,
  variables: Record<string, unknown>,
  files: Record<string, { data: Buffer; name: string; type: string }>,
  token?: string,
) {
  const form = new FormData();
  form.set('operations', JSON.stringify({ query, variables }));
  const entries = Object.entries(files);
  form.set('map', JSON.stringify(Object.fromEntries(entries.map(([path], i) => [String(i), [`variables.${path}`]]))));
  entries.forEach(([, f], i) => {
    form.set(String(i), new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
  });
  const res = await fetch(`${t.url}/query`, {
    method: 'POST',
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const body = (await res.json()) as { data: any; errors?: Array<{ message: string; extensions?: { code?: string } }> };
  return { status: res.status, ...body };
}

export async function pngImage(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .png()
    .toBuffer();
}
