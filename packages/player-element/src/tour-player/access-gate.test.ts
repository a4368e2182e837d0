/**
 * A protected tour's gate on the real server: the password screen names nothing of the tour and fetches no
 * file of it; a wrong password says so; the right one plays the tour (its files signed) and lasts the browser session;
 * company only shows the members' screen. The tour `other` is made protected for these tests and public again after.
 */
import { expect } from '@esm-bundle/chai';
import { executeServerCommand } from '@web/test-runner-commands';
import { render } from 'lit';
import './tour-player.js';
import { cleanup, firstEvent, makePlayer, ownerGql, real, server, shadowText, until } from '../../test/helpers.js';
import { grantFor } from '../api/access-grant.js';
import { adoptGateStyles, renderAccessGate } from './access-gate.js';
import type { TourPlayer } from './tour-player.js';

const SET_ACCESS = 'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { access } }';
const setAccess = (access: string, password?: string) =>
  ownerGql(SET_ACCESS, { input: { id: real.other, access, ...(password ? { password } : {}) } });
const gateOf = (p: TourPlayer) => p.shadowRoot?.querySelector<HTMLElement>('[part="gate-card"]') ?? null;
const requested = async () => (await executeServerCommand('requests')) as string[];

describe('protected tour: the gate', () => {
  before(async () => {
    sessionStorage.clear();
    await setAccess('PASSWORD', 'harbour view');
  });
  after(async () => {
    cleanup();
    sessionStorage.clear();
    await setAccess('PUBLIC');
  });
  afterEach(() => cleanup());

  it('shows the password screen without the title, poster, rooms or any file of the tour', async () => {
    await executeServerCommand('requests-start');
    const p = await makePlayer({ 'tour-id': real.other, api: server, loading: 'eager' });
    const gate = (await until(() => gateOf(p), 'the password screen'))!;
    expect(gate.dataset.kind).to.equal('password');
    expect(gate.getAttribute('role')).to.equal('dialog');
    const text = shadowText(p);
    expect(text).to.contain('This tour is protected');
    for (const secret of ['Seaside Villa', 'Kitchen', 'Entrance', 'Bedroom']) expect(text).not.to.contain(secret);
    expect(p.shadowRoot!.querySelector('[part="poster"], [part="background"], [part="intro-logo"]')).to.equal(null);
    expect(p.shadowRoot!.querySelector('canvas')!.getAttribute('aria-label')).to.equal('Tour');
    // The company's name (it has no logo): its branding, not the tour's.
    expect(p.shadowRoot!.querySelector('[part="gate-company"]')?.textContent).to.match(/^Company /);
    expect((await requested()).filter((u) => u.includes('/media/'))).to.deep.equal([]);
    expect(p.shadowRoot!.querySelector('[part="loading"]'), 'no spinner behind the gate').to.equal(null);
  });

  it('a wrong password says so and keeps the gate; the right one plays the tour with signed files', async function () {
    this.timeout(90_000);
    await executeServerCommand('requests-start');
    const p = await makePlayer({ 'tour-id': real.other, api: server, loading: 'eager' });
    const gate = (await until(() => gateOf(p), 'the password screen'))!;
    const input = gate.querySelector<HTMLInputElement>('input[name="password"]')!;
    input.value = 'wrong guess';
    gate.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    const alert = (await until(() => p.shadowRoot!.querySelector('[role="alert"]'), 'the wrong-password message'))!;
    expect(alert.textContent).to.equal('That password is not right. Please try again.');
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(grantFor(real.other)).to.equal(undefined);

    gateOf(p)!.querySelector<HTMLInputElement>('input[name="password"]')!.value = 'harbour view';
    gateOf(p)!.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    await firstEvent(p, 'tour-ready', 80_000);
    expect(gateOf(p)).to.equal(null);
    expect(p.shadowRoot!.querySelector('.title')?.textContent).to.contain('Seaside Villa');
    const media = (await requested()).filter((u) => u.includes('/media/'));
    expect(media.length).to.be.greaterThan(0);
    for (const url of media) expect(url).to.match(/\?e=\d+&v=\d+&s=/);
    const grant = grantFor(real.other);
    expect(grant).to.be.a('string');
    // The grant went in a request header: no URL the player asked for carries it (an access log keeps URLs).
    const mac = grant!.split('.').at(-1)!;
    const all = await requested();
    expect(
      all.some((u) => u.includes('/query?')),
      'the tour was asked for by GET',
    ).to.equal(true);
    expect(all.filter((u) => u.includes(mac) || u.includes(encodeURIComponent(grant!)))).to.deep.equal([]);
  });

  it('once per browser session: another player of the tour opens without asking', async function () {
    this.timeout(90_000);
    expect(grantFor(real.other), 'the grant of the test before').to.be.a('string');
    const p = await makePlayer({ 'tour-id': real.other, api: server, loading: 'eager' });
    await firstEvent(p, 'tour-ready', 80_000);
    expect(gateOf(p)).to.equal(null);
  });

  it('a new password sends the session back to the gate', async () => {
    await setAccess('PASSWORD', 'new harbour');
    const p = await makePlayer({ 'tour-id': real.other, api: server, loading: 'eager' });
    await until(() => gateOf(p), 'the password screen again');
    expect(grantFor(real.other)).to.equal(undefined);
  });

  it('company only: the members screen with a way to sign in, and no password field', async () => {
    await setAccess('COMPANY');
    const p = await makePlayer({ 'tour-id': real.other, api: server, loading: 'eager' });
    const gate = (await until(() => gateOf(p), 'the members screen'))!;
    expect(gate.dataset.kind).to.equal('members');
    expect(shadowText(p)).to.contain('Only members of the company can view this tour.');
    expect(gate.querySelector('input')).to.equal(null);
    expect(gate.querySelector('a')!.getAttribute('href')).to.equal(`${server}/login`);
    expect(shadowText(p)).not.to.contain('Seaside Villa');
    await setAccess('PASSWORD', 'new harbour');
  });

  it('shows a company logo and accent colour when the plan has branding, and nothing of them unbranded', async () => {
    const host = document.createElement('div');
    document.body.append(host);
    const root = host.attachShadow({ mode: 'open' });
    adoptGateStyles(root);
    const gate = {
      kind: 'password' as const,
      companyName: 'Villa Estates',
      logoURL: `${server}/media/logo.png`,
      accentColor: '#8a1c7c',
      error: '',
      busy: false,
    };
    render(renderAccessGate(gate, { signInUrl: '', unbranded: false, onSubmit: () => undefined }), root);
    expect(root.querySelector('img[part="gate-logo"]')!.getAttribute('alt')).to.equal('Villa Estates');
    expect(
      (root.querySelector('[part="gate"]') as HTMLElement).style.getPropertyValue('--tour-player-accent'),
    ).to.equal('#8a1c7c');
    render(renderAccessGate(gate, { signInUrl: '', unbranded: true, onSubmit: () => undefined }), root);
    expect(root.querySelector('img')).to.equal(null);
    expect(
      (root.querySelector('[part="gate"]') as HTMLElement).style.getPropertyValue('--tour-player-accent'),
    ).to.equal('');
    host.remove();
  });
});
