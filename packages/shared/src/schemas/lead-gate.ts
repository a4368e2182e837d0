/**
 * Lead-gated rooms (docs/access-and-privacy.md): a tour asks for the lead form before a chosen room or after a number
 * of seconds, and the visitor goes on at once or waits for the agent's approval. The owner's input and the texts the
 * player, the console and the server's approval page share.
 */
import { z } from '../zod.js';

export * from '../lead-gate-texts.js';
import { LEAD_GATE_MODES, LEAD_GATE_SECONDS_MAX, LEAD_GATE_SECONDS_MIN, LEAD_GATE_TEXTS } from '../lead-gate-texts.js';

/** The owner's lead gate choice in Tour Info. */
export const leadGateInputSchema = z
  .object({
    mode: z.enum(LEAD_GATE_MODES),
    markerId: z.string().max(100).nullish(),
    seconds: z
      .number()
      .int(LEAD_GATE_TEXTS.secondsRange)
      .min(LEAD_GATE_SECONDS_MIN, LEAD_GATE_TEXTS.secondsRange)
      .max(LEAD_GATE_SECONDS_MAX, LEAD_GATE_TEXTS.secondsRange)
      .nullish(),
    approval: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (v.mode === LEAD_GATE_MODES.room && !v.markerId)
      ctx.addIssue({ code: 'custom', path: ['markerId'], message: LEAD_GATE_TEXTS.roomNeeded });
    if (v.mode === LEAD_GATE_MODES.seconds && (v.seconds === null || v.seconds === undefined))
      ctx.addIssue({ code: 'custom', path: ['seconds'], message: LEAD_GATE_TEXTS.secondsRange });
  });
export type LeadGateInput = z.infer<typeof leadGateInputSchema>;
