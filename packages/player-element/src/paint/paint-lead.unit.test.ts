import { describe, expect, it } from 'vitest';
import { LEAD_MAX, LEAD_MIN, PaintLead } from './paint-lead.js';

describe('PaintLead', () => {
  it('grows by two frames at each late bitmap, up to its bound, while bitmaps take less than a refresh', () => {
    const lead = new PaintLead();
    lead.cost(3);
    expect(lead.frames).toBe(LEAD_MIN);
    lead.note(true);
    expect(lead.frames).toBe(LEAD_MIN + 2);
    for (let i = 0; i < 10; i++) lead.note(true);
    expect(lead.frames).toBe(LEAD_MAX);
    expect(lead.late).toBe(11);
  });

  it('does not grow where each bitmap takes longer than a refresh (the CPU is short: more ahead only takes it from decoding)', () => {
    const lead = new PaintLead();
    lead.cost(30);
    lead.note(true);
    expect(lead.frames).toBe(LEAD_MIN);
    expect(lead.late).toBe(1);
    // Once bitmaps are cheap again, lateness grows it.
    for (let i = 0; i < 20; i++) lead.cost(2);
    lead.note(true);
    expect(lead.frames).toBe(LEAD_MIN + 2);
  });

  it('shrinks by one frame after two seconds of on-time paints, never below its floor', () => {
    const lead = new PaintLead();
    lead.note(true);
    for (let i = 0; i < 119; i++) lead.note(false);
    expect(lead.frames).toBe(LEAD_MIN + 2);
    lead.note(false);
    expect(lead.frames).toBe(LEAD_MIN + 1);
    // A late paint starts the count again.
    for (let i = 0; i < 100; i++) lead.note(false);
    lead.note(true);
    for (let i = 0; i < 119; i++) lead.note(false);
    expect(lead.frames).toBe(LEAD_MIN + 3);
    for (let i = 0; i < 2000; i++) lead.note(false);
    expect(lead.frames).toBe(LEAD_MIN);
  });
});
