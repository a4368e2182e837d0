/** The account mails reach a real SMTP server (smtp-server on loopback) through the pg-boss mail job. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { register, uniqueEmail } from './helpers/accounts.js';
import { startSmtpInbox, type SmtpInbox } from './helpers/smtp.js';
import { activationMail, inviteMail, passwordResetMail } from '../src/mail/templates.js';

/** Undoes quoted-printable soft breaks and escapes, enough to read links in the raw message. */
const unQp = (s: string) =>
  s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));

describe('account mails over SMTP', () => {
  let smtp: SmtpInbox;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpInbox();
    t = await startTestApp('pglite', {
      RATE_LIMIT_DISABLED: true,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Roomwalk <no-reply@roomwalk.test>',
    });
  });
  afterAll(async () => {
    await t?.stop();
    await smtp.close();
  });

  const mailTo = (to: string, subject: RegExp) =>
    vi.waitFor(
      () => {
        const m = smtp.inbox.find((r) => r.to.includes(to) && subject.test(unQp(r.raw)));
        if (!m) throw new Error(`no SMTP mail to ${to}`);
        return m;
      },
      { timeout: 15_000, interval: 50 },
    );

  function expectBothParts(raw: string, link: string) {
    const text = unQp(raw);
    expect(raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(raw).toMatch(/Content-Type: text\/plain/i);
    expect(raw).toMatch(/Content-Type: text\/html/i);
    expect(text).toContain(link);
    // '&' in an attribute is escaped, as &amp; or &#38;.
    expect(
      [`href="${link.replace(/&/g, '&amp;')}"`, `href="${link.replace(/&/g, '&#38;')}"`].some((href) =>
        text.includes(href),
      ),
    ).toBe(true);
  }

  it('delivers the activation mail, HTML and text, with its link', async () => {
    const email = uniqueEmail('smtp');
    expect((await register(t, { username: email })).errors).toBeUndefined();
    const m = await mailTo(email, /Subject: Activate your Roomwalk account/);
    expect(m.from).toBe('no-reply@roomwalk.test');
    const link = /(http:\/\/127\.0\.0\.1:\d+\/account\/activate\?token=[A-Za-z0-9_-]+)/.exec(unQp(m.raw))![1]!;
    expectBothParts(m.raw, link);
    // No development outbox when SMTP is configured.
    expect(await t.app.services.db.selectFrom('mail_outbox').select('id').execute()).toHaveLength(0);
    expect((await fetch(`${t.url}/dev/outbox.json`)).status).toBe(404);
  });

  it('delivers the password reset mail', async () => {
    const u = await seedUser(t.app);
    await t.gql(
      'mutation($input: UserRequestPasswordResetInput!) { userRequestPasswordReset(input: $input) { success } }',
      { input: { email: u.user.username } },
    );
    const m = await mailTo(u.user.username, /Subject: Reset your Roomwalk password/);
    const link = /(http:\/\/127\.0\.0\.1:\d+\/password\/reset\?token=[A-Za-z0-9_-]+)/.exec(unQp(m.raw))![1]!;
    expectBothParts(m.raw, link);
  });

  it('delivers the team invite mail', async () => {
    const admin = await seedUser(t.app, { name: 'Zanele', surname: 'Mthembu' });
    const email = uniqueEmail('invitee');
    await t.gql(
      'mutation($input: InviteMemberInput!) { inviteMember(input: $input) { id } }',
      { input: { email, companyId: admin.companyId } },
      admin.token,
    );
    const m = await mailTo(email, /Subject: Zanele Mthembu invited you to/);
    // The link carries the invitee's address so the sign-up form can fill it in.
    const link = /(http:\/\/127\.0\.0\.1:\d+\/signup\?inviteToken=[A-Za-z0-9_-]+&email=[A-Za-z0-9._%-]+)/.exec(
      unQp(m.raw),
    )![1]!;
    expect(link.endsWith(`&email=${encodeURIComponent(email)}`)).toBe(true);
    expectBothParts(m.raw, link);
  });
});

describe('mail templates', () => {
  it('escape names in HTML and keep the link in both parts', () => {
    const link = 'https://roomwalk.example/signup?inviteToken=abc';
    for (const m of [
      activationMail({ to: 'a@x.io', name: '<b>Eve</b>', link }),
      passwordResetMail({ to: 'a@x.io', name: '<b>Eve</b>', link }),
      inviteMail({ to: 'a@x.io', companyName: '<script>x</script>', inviterName: 'Eve & Co', link }),
    ]) {
      expect(m.html).not.toMatch(/<b>Eve|<script>/);
      expect(m.text).toContain(link);
      expect(m.html).toContain(`href="${link}"`);
      expect(m.links).toEqual([link]);
    }
  });
});
