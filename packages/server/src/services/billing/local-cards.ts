/**
 * Card rules of the built-in local checkout (no money moves). The numbers follow Stripe's documented test cards so
 * the same habits work against either provider; docs/plans.md lists them.
 */

const LOCAL_SUCCESS_CARDS: readonly string[] = ['4242424242424242', '5555555555554444'];

/** Numbers that are declined, with the message the checkout page shows. */
export const LOCAL_DECLINE_CARDS: Readonly<Record<string, string>> = {
  '4000000000000002': 'Your card was declined.',
  '4000000000009995': 'Your card has insufficient funds.',
  '4000000000000069': 'Your card has expired.',
  '4000000000000127': 'Your card’s security code is incorrect.',
  '4000000000000119': 'An error occurred while processing your card. Try again in a little bit.',
};

export const CARD_MESSAGES = {
  numberRequired: 'Enter your card number.',
  numberInvalid: 'Your card number is incorrect.',
  notATestCard: 'This is a test checkout: no real card is charged. Use the test card 4242 4242 4242 4242.',
  expiryRequired: 'Enter the expiry date as MM / YY.',
  expiryInvalid: 'Your card’s expiry date is incomplete or not a real date. Use MM / YY.',
  expiryPast: 'Your card’s expiry date is in the past.',
  cvcRequired: 'Enter the 3 or 4 digit security code (CVC).',
  cvcInvalid: 'Your card’s security code is incomplete.',
} as const;

export type CardField = 'cardNumber' | 'expiry' | 'cvc';
export type CardCheck =
  | { ok: true; last4: string }
  | { ok: false; kind: 'invalid'; fields: Partial<Record<CardField, string>> }
  | { ok: false; kind: 'declined'; message: string };

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Checks the form the way a card network would (a card past its month at `now`, the server's clock, is refused), then applies the test-card table. */
export function checkCard(input: { cardNumber?: string; expiry?: string; cvc?: string }, now: Date): CardCheck {
  const fields: Partial<Record<CardField, string>> = {};
  const number = (input.cardNumber ?? '').replace(/[\s-]/g, '');
  if (!number) fields.cardNumber = CARD_MESSAGES.numberRequired;
  else if (!/^\d{12,19}$/.test(number) || !luhn(number)) fields.cardNumber = CARD_MESSAGES.numberInvalid;

  const expiry = (input.expiry ?? '').replace(/\s/g, '');
  const m = /^(\d{1,2})\/?(\d{2}|\d{4})$/.exec(expiry);
  if (!expiry) fields.expiry = CARD_MESSAGES.expiryRequired;
  else if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) fields.expiry = CARD_MESSAGES.expiryInvalid;
  else {
    const month = Number(m[1]);
    const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
    const endOfMonth = Date.UTC(year, month, 1);
    if (endOfMonth <= now.getTime()) fields.expiry = CARD_MESSAGES.expiryPast;
  }

  const cvc = (input.cvc ?? '').trim();
  if (!cvc) fields.cvc = CARD_MESSAGES.cvcRequired;
  else if (!/^\d{3,4}$/.test(cvc)) fields.cvc = CARD_MESSAGES.cvcInvalid;

  if (Object.keys(fields).length > 0) return { ok: false, kind: 'invalid', fields };
  const declined = LOCAL_DECLINE_CARDS[number];
  if (declined) return { ok: false, kind: 'declined', message: declined };
  if (!LOCAL_SUCCESS_CARDS.includes(number))
    return { ok: false, kind: 'declined', message: CARD_MESSAGES.notATestCard };
  return { ok: true, last4: number.slice(-4) };
}
