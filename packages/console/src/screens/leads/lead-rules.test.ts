import { describe, expect, it } from 'vitest';
import { gateText, holdsPass, leadName, roomPathText } from './lead-rules.js';

describe('how Leads words a lead', () => {
  it('names the lead, with or without a surname', () => {
    expect(leadName({ name: 'Bianca', surname: 'Buyer' })).toBe('Bianca Buyer');
    expect(leadName({ name: 'Bianca', surname: null })).toBe('Bianca');
  });

  it("says where a lead stands at the tour's lead gate, and nothing without one", () => {
    expect(gateText('WAITING')).toBe('Waiting for your approval');
    expect(gateText('APPROVED')).toBe('Approved');
    expect(gateText('OPEN')).toBe('Went on after the form');
    expect(gateText('REVOKED')).toBe('Pass revoked');
    expect(gateText(null)).toBe('');
  });

  it('offers to take back only a pass the lead holds', () => {
    expect(holdsPass('APPROVED')).toBe(true);
    expect(holdsPass('OPEN')).toBe(true);
    expect(holdsPass('WAITING')).toBe(false);
    expect(holdsPass('REVOKED')).toBe(false);
    expect(holdsPass(null)).toBe(false);
  });

  it('lists the rooms a visitor saw in order, with the time in each', () => {
    expect(
      roomPathText([
        { name: 'Living room', seconds: 10 },
        { name: 'Bedroom', seconds: 65 },
      ]),
    ).toBe('Living room 10 s → Bedroom 1 min 5 s');
    expect(roomPathText([])).toBe('');
    expect(roomPathText(null)).toBe('');
  });
});
