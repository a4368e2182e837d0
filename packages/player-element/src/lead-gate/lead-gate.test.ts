/**
 * A tour's lead gate on the real server, at phone size: the player plays up to the gate's room (the server never gave
 * it the later clips, and it fetches none of them), the form comes in the company's branding where the visitor stops,
 * says plainly that the visitor waits, and when the agent approves the tour goes on in the same page (no reload) with
 * the rooms past the gate. The tour `other` gets a gate for these tests and none after.
 */
import { expect } from '@esm-bundle/chai';
import { executeServerCommand } from '@web/test-runner-commands';
import '../tour-player/tour-player.js';
import {
  cleanup,
  firstEvent,
  makePlayer,
  ownerGql,
  real,
  server,
  serverMarkers,
  setViewport,
  shadowText,
  until,
} from '../../test/helpers.js';
import type { TourPlayer } from '../tour-player/tour-player.js';

const GATE_SET = 'mutation($input: TourLeadGateSetInput!) { tourLeadGateSet(input: $input) { id } }';
const WAITING = 'query { tourLeads(waiting: true) { id name tourId stoppedAt } }';
const APPROVE = 'mutation($id: ID!) { tourLeadApprove(id: $id) { gate } }';
const OWNER_CLIPS = 'query($id: ID!) { tour(tourID: $id) { clips { highURI lowURI } } }';
const card = (p: TourPlayer) => p.shadowRoot?.querySelector<HTMLElement>('[part="lead-gate-card"]') ?? null;
const path = (u: string) => new URL(u).pathname;

describe('lead gate: the form before the kitchen, the agent approves, the tour goes on', () => {
  let gatedPaths: string[] = [];
  before(async () => {
    sessionStorage.clear();
    const kitchen = (await serverMarkers(real.other)).find((m) => m.name === 'Kitchen')!;
    await ownerGql(GATE_SET, { input: { id: real.other, mode: 'ROOM', markerId: kitchen.id, approval: true } });
    const whole = (
      await ownerGql<{ tour: { clips: Array<{ highURI: string; lowURI: string }> } }>(OWNER_CLIPS, { id: real.other })
    ).data.tour.clips;
    // The clips past the gate: the ones a visitor's answer leaves out.
    const visitor = await (
      await fetch(`${server}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'query($id: ID!) { tour(tourID: $id) { clips { index } } }',
          variables: { id: real.other },
        }),
      })
    ).json();
    gatedPaths = whole.slice(visitor.data.tour.clips.length).flatMap((c) => [path(c.highURI), path(c.lowURI)]);
    expect(gatedPaths.length, 'the gate holds clips back').to.be.greaterThan(0);
  });
  after(async () => {
    cleanup();
    sessionStorage.clear();
    await ownerGql(GATE_SET, { input: { id: real.other, mode: 'OFF', approval: false } });
    await setViewport({ width: 1000, height: 800 });
  });

  it('stops the visitor before the room, waits plainly, and continues without a reload when approved', async function () {
    this.timeout(120_000);
    await setViewport({ width: 390, height: 844 });
    await executeServerCommand('requests-start');
    (window as unknown as { sameDocument?: boolean }).sameDocument = true;
    const p = await makePlayer(
      { 'tour-id': real.other, api: server, loading: 'eager' },
      {},
      { width: 390, height: 600 },
    );
    await firstEvent(p, 'tour-ready', 60_000);
    const before = p.totalFrames;
    expect(p.tour!.leadGate).to.deep.include({ roomName: 'Kitchen', approval: true, open: false });
    // Fast travel to the kitchen stops where the visitor's tour ends, and the form comes.
    void p.goToRoom('Kitchen').catch(() => undefined);
    const form = (await until(() => card(p), 'the lead form'))!;
    expect(form.getAttribute('role')).to.equal('dialog');
    expect(form.querySelector('h2')!.textContent).to.equal('Leave your details to see the Kitchen');
    for (const input of form.querySelectorAll('input'))
      expect(input.closest('label'), `${input.name} has a label`).to.not.equal(null);
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    expect(submit.getBoundingClientRect().height, 'a touch target').to.be.at.least(44);
    expect(form.getBoundingClientRect().right).to.be.at.most(390);

    // Nothing sent without a name: the field says so.
    submit.click();
    const nameInput = form.querySelector<HTMLInputElement>('input[name="name"]')!;
    await until(() => nameInput.getAttribute('aria-invalid') === 'true', 'the name marked');
    nameInput.value = 'Bianca';
    form.querySelector<HTMLInputElement>('input[name="surname"]')!.value = 'Buyer';
    form.querySelector<HTMLInputElement>('input[name="email"]')!.value = 'bianca@example.com';
    submit.click();
    await until(() => card(p)?.dataset.phase === 'waiting', 'the waiting screen');
    expect(shadowText(p)).to.contain('Waiting for the agent');
    expect(shadowText(p)).to.contain('will let you continue shortly');

    // The agent approves (the Leads list's call); the page continues by itself.
    const lead = (await until(
      async () =>
        (
          await ownerGql<{ tourLeads: Array<{ id: string; name: string; stoppedAt: string | null }> }>(WAITING)
        ).data.tourLeads.find((l) => l.name === 'Bianca'),
      'the waiting lead',
    ))!;
    expect(lead.stoppedAt).to.equal('Entrance');
    const requestsBefore = (await executeServerCommand('requests')) as string[];
    for (const gated of gatedPaths)
      expect(
        requestsBefore.some((u) => u.includes(gated)),
        `${gated} not fetched before approval`,
      ).to.equal(false);
    await ownerGql(APPROVE, { id: lead.id });
    await until(() => p.tour?.leadGate?.open === true && !card(p), 'the tour through the gate', 30_000);
    expect(p.totalFrames).to.be.greaterThan(before);
    expect((window as unknown as { sameDocument?: boolean }).sameDocument, 'the same page').to.equal(true);
    // The rooms past the gate play: travel to the Bedroom (past the kitchen).
    await p.goToRoom('Bedroom');
    expect(p.currentRoom?.name).to.equal('Bedroom');
  });
});
