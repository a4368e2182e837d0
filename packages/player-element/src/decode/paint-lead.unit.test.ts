import { describe, expect, it } from 'vitest';
import { LEAD_MAX, LEAD_MIN, PaintLead } from './paint-lead.js';

describe('PaintLead', () => {
  it('grows by two frames at each late bitmap, up to its bound', () => {
    const lead = new PaintLead();
    expect(lead.frames).toBe(LEAD_MIN);
    lead.note(true);
    expect(lead.frames).toBe(LEAD_MIN + 2);
    for (let i = 0; i < 10; i++) lead.note(true);
    expect(lead.frames).toBe(LEAD_MAX);
    expect(lead.late).toBe(11);
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
