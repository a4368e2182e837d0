/**
 * A small fake of the Stripe HTTP API on loopback, for the Stripe adapter's tests: the real `stripe` client talks to
 * it (host/port/protocol options). It keeps prices, customers, subscriptions, checkout and portal sessions, replays
 * idempotent POSTs like Stripe does, and logs every request so tests can check what the adapter sent.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Obj = Record<string, any>;

export interface LoggedRequest {
  method: string;
  path: string;
  query: Obj;
  body: Obj;
  headers: http.IncomingHttpHeaders;
}

/** Parses Stripe's bracket form encoding (a[b][0][c]=v) into nested objects and arrays. */
function parseStripeForm(text: string): Obj {
  const out: Obj = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let node: any = out;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]!);
      const key: string | number = Array.isArray(node) ? Number(part) : part;
      if (last) node[key] = value;
      else node = node[key] ??= nextIsIndex ? [] : {};
    });
  }
  return out;
}

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

export class FakeStripe {
  server = http.createServer((req, res) => void this.handle(req, res));
  url = '';
  requests: LoggedRequest[] = [];
  products = new Map<string, Obj>();
  prices: Obj[] = [];
  customers = new Map<string, Obj>();
  subscriptions = new Map<string, Obj>();
  checkoutSessions = new Map<string, Obj>();
  idempotent = new Map<string, { status: number; body: Obj }>();
  /** Answers the next request to this path with a Stripe error. */
  failures = new Map<string, { status: number; error: Obj }>();

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }

  addProduct(p: { name: string; description?: string; active?: boolean }): Obj {
    const product = {
      id: id('prod'),
      object: 'product',
      active: p.active ?? true,
      name: p.name,
      description: p.description ?? null,
      metadata: {},
    };
    this.products.set(product.id, product);
    return product;
  }

  addPrice(p: {
    product: Obj;
    lookupKey: string | null;
    unitAmount?: number;
    tiers?: Array<{ flat_amount: number; unit_amount: number; up_to: number | null }>;
    currency?: string;
    active?: boolean;
  }): Obj {
    const price = {
      id: id('price'),
      object: 'price',
      active: p.active ?? true,
      currency: p.currency ?? 'zar',
      lookup_key: p.lookupKey,
      product: p.product.id,
      billing_scheme: p.tiers ? 'tiered' : 'per_unit',
      unit_amount: p.tiers ? null : (p.unitAmount ?? 0),
      tiers_mode: p.tiers ? 'volume' : null,
      recurring: { interval: 'month', interval_count: 1 },
      type: 'recurring',
      metadata: {},
      ...(p.tiers
        ? {
            tiers: p.tiers.map((t) => ({
              ...t,
              flat_amount_decimal: String(t.flat_amount),
              unit_amount_decimal: String(t.unit_amount),
            })),
          }
        : {}),
    };
    this.prices.push(price);
    return price;
  }

  addCustomer(metadata: Obj = {}): Obj {
    const c = { id: id('cus'), object: 'customer', email: null, name: null, metadata, created: now() };
    this.customers.set(c.id, c);
    return c;
  }

  /** Creates or replaces a subscription in the state the tests want Stripe to hold. */
  setSubscription(s: {
    id?: string;
    customer: string;
    price: Obj;
    status: string;
    created?: number;
    periodStart?: number;
    cancelAt?: number | null;
    metadata?: Obj;
  }): Obj {
    const sid = s.id ?? id('sub');
    const start = s.periodStart ?? now() - 3600;
    const sub = {
      id: sid,
      object: 'subscription',
      customer: s.customer,
      status: s.status,
      created: s.created ?? start,
      start_date: s.created ?? start,
      cancel_at: s.cancelAt ?? null,
      cancel_at_period_end: false,
      ended_at: s.status === 'canceled' ? now() : null,
      metadata: s.metadata ?? {},
      items: {
        object: 'list',
        has_more: false,
        data: [
          {
            id: id('si'),
            object: 'subscription_item',
            quantity: 1,
            price: this.expandPrice(s.price),
            current_period_start: start,
            current_period_end: start + 30 * 86400,
          },
        ],
      },
    };
    this.subscriptions.set(sid, sub);
    return sub;
  }

  private expandPrice(price: Obj): Obj {
    return { ...price };
  }

  count(method: string, path: string, pred: (r: LoggedRequest) => boolean = () => true): number {
    return this.requests.filter((r) => r.method === method && r.path === path && pred(r)).length;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const u = new URL(req.url ?? '/', 'http://x');
    const body = parseStripeForm(Buffer.concat(chunks).toString('utf8'));
    const query = parseStripeForm(u.search.slice(1));
    const logged: LoggedRequest = { method: req.method ?? 'GET', path: u.pathname, query, body, headers: req.headers };
    this.requests.push(logged);
    const send = (status: number, payload: Obj) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
      res.end(JSON.stringify(payload));
    };
    if (req.headers.authorization !== 'Bearer sk_test_roomwalk')
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    const failure = this.failures.get(u.pathname);
    if (failure) {
      this.failures.delete(u.pathname);
      return send(failure.status, { error: failure.error });
    }
    const key = req.headers['idempotency-key'];
    const idemKey = req.method === 'POST' && typeof key === 'string' ? `${u.pathname}|${key}` : null;
    if (idemKey && this.idempotent.has(idemKey)) {
      const prior = this.idempotent.get(idemKey)!;
      return send(prior.status, prior.body);
    }
    const [status, payload] = this.route(logged);
    if (idemKey) this.idempotent.set(idemKey, { status, body: payload });
    send(status, payload);
  }

  private list(data: Obj[], url: string): Obj {
    return { object: 'list', data, has_more: false, url };
  }

  private route(r: LoggedRequest): [number, Obj] {
    const { method, path, body, query } = r;
    const expand: string[] = Object.values(query.expand ?? {});
    if (method === 'GET' && path === '/v1/prices') {
      const keys: string[] = Object.values(query.lookup_keys ?? {});
      let data = this.prices.filter(
        (p) =>
          (keys.length === 0 || keys.includes(p.lookup_key)) &&
          (query.active === undefined || String(p.active) === query.active),
      );
      data = data.map((p) => ({
        ...p,
        product: expand.includes('data.product') ? this.products.get(p.product) : p.product,
        tiers: expand.includes('data.tiers') ? p.tiers : undefined,
      }));
      return [200, this.list(data, '/v1/prices')];
    }
    if (method === 'POST' && path === '/v1/customers') {
      const c = {
        id: id('cus'),
        object: 'customer',
        email: body.email ?? null,
        name: body.name ?? null,
        metadata: body.metadata ?? {},
        created: now(),
      };
      this.customers.set(c.id, c);
      return [200, c];
    }
    const cust = /^\/v1\/customers\/([^/]+)$/.exec(path);
    if (method === 'GET' && cust) {
      const c = this.customers.get(cust[1]!);
      return c
        ? [200, c]
        : [
            404,
            {
              error: {
                type: 'invalid_request_error',
                message: `No such customer: '${cust[1]}'`,
                code: 'resource_missing',
              },
            },
          ];
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const missing = ['mode', 'success_url', 'cancel_url'].filter((k) => !body[k]);
      if (missing.length > 0 || !body.line_items?.[0]?.price)
        return [
          400,
          {
            error: { type: 'invalid_request_error', message: `Missing required param: ${missing[0] ?? 'line_items'}.` },
          },
        ];
      const s = {
        id: id('cs_test'),
        object: 'checkout.session',
        mode: body.mode,
        customer: body.customer,
        client_reference_id: body.client_reference_id,
        metadata: body.metadata ?? {},
        status: 'open',
        url: '',
      };
      s.url = `https://checkout.stripe.test/c/pay/${s.id}`;
      this.checkoutSessions.set(s.id, s);
      return [200, s];
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!body.customer || !this.customers.has(body.customer))
        return [400, { error: { type: 'invalid_request_error', message: 'No such customer' } }];
      const s = {
        id: id('bps'),
        object: 'billing_portal.session',
        customer: body.customer,
        return_url: body.return_url,
        url: '',
      };
      s.url = `https://billing.stripe.test/p/session/${s.id}`;
      return [200, s];
    }
    if (method === 'GET' && path === '/v1/subscriptions') {
      const data = [...this.subscriptions.values()]
        .filter((s) => !query.customer || s.customer === query.customer)
        .sort((a, b) => b.created - a.created);
      return [200, this.list(data, '/v1/subscriptions')];
    }
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (method === 'GET' && sub) {
      const s = this.subscriptions.get(sub[1]!);
      return s
        ? [200, s]
        : [
            404,
            { error: { type: 'invalid_request_error', message: 'No such subscription', code: 'resource_missing' } },
          ];
    }
    return [
      404,
      { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` } },
    ];
  }
}
