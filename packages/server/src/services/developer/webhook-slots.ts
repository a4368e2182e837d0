/**
 * A worker node's delivery slots, shared fairly by company (pure; webhook-deliveries.ts holds one per worker node).
 * A hanging receiver holds a slot for the whole WEBHOOK_TIMEOUT_SECONDS, so slots are the scarce thing: three companies
 * whose endpoints hang, three slots each, held all eight of a node's, and everyone else's deliveries waited for one to
 * time out. Two rules keep room for the others:
 *
 * - `reserve` slots are for companies holding none here: a company's second and later slots are taken only while more
 *   than `reserve` are free, so a company that has nothing in flight finds one free unless `size - reserve` companies
 *   each hold one (a delivery then waits at most one timeout);
 * - deliveries to an endpoint that is failing (it has not answered since its last failure) hold at most `failingCap`
 *   slots together, so after one round of timeouts even many hanging companies leave the rest to the others.
 *
 * Across nodes a company holds at most WEBHOOK_COMPANY_SLOTS in flight besides (leases, webhook-deliveries.ts).
 */
export class DeliverySlots {
  readonly #held = new Map<string, number>();
  #busy = 0;
  #failing = 0;

  constructor(
    readonly size: number,
    readonly reserve = Math.max(1, Math.floor(size / 4)),
    readonly failingCap = Math.max(1, Math.floor(size / 2)),
  ) {}

  get busy(): number {
    return this.#busy;
  }

  /** Takes a slot for the company's delivery; answers its release, or null when the company must wait its turn. */
  take(companyId: string, endpointFailing: boolean): (() => void) | null {
    const free = this.size - this.#busy;
    const mine = this.#held.get(companyId) ?? 0;
    if (free <= 0 || (mine > 0 && free <= this.reserve)) return null;
    if (endpointFailing && this.#failing >= this.failingCap) return null;
    this.#busy++;
    this.#held.set(companyId, mine + 1);
    if (endpointFailing) this.#failing++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#busy--;
      if (endpointFailing) this.#failing--;
      const left = (this.#held.get(companyId) ?? 1) - 1;
      if (left > 0) this.#held.set(companyId, left);
      else this.#held.delete(companyId);
    };
  }
}
