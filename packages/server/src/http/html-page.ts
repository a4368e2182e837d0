/**
 * The server's own small pages (the local billing pages, the data export download, lead and account deletion
 * confirmations): self-contained HTML with inline styles and no script, native controls with labels, sent with a
 * policy that allows nothing but their styles and forms posting back to this server.
 */
import type { FastifyReply } from 'fastify';
import { escapeHtml as esc } from '../core/html.js';
import type { Services } from '../services/services.js';

const STYLES = `
:root { color-scheme: light; --ink: #1f2933; --muted: #52606d; --line: #9aa5b1; --accent: #1849a9; --error: #b42318; --ok: #05603a; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f5f7fa; }
main { max-width: 32rem; margin: 2rem auto; padding: 1.5rem; background: #fff; border-radius: 12px; box-shadow: 0 1px 4px rgba(0,0,0,.12); }
.brand { font-weight: 700; color: var(--accent); margin: 0 0 .5rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; } h2 { font-size: 1.125rem; margin: 1.5rem 0 .5rem; }
.price { font-size: 1.25rem; margin: .25rem 0 1rem; }
.note { background: #eff4ff; border-left: 4px solid var(--accent); padding: .75rem 1rem; margin: 1rem 0; }
.alert { background: #fef3f2; border-left: 4px solid var(--error); padding: .75rem 1rem; margin: 1rem 0; color: var(--error); }
.status { background: #ecfdf3; border-left: 4px solid var(--ok); padding: .75rem 1rem; margin: 1rem 0; color: var(--ok); }
.field { margin: 0 0 1rem; display: flex; flex-direction: column; }
.row { display: flex; gap: 1rem; } .row .field { flex: 1; }
label, legend { font-weight: 600; margin-bottom: .25rem; }
input[type=text] { font: inherit; padding: .6rem .75rem; border: 1px solid var(--line); border-radius: 6px; }
input[aria-invalid=true] { border-color: var(--error); border-width: 2px; }
.error { color: var(--error); margin: .25rem 0 0; font-size: .9375rem; }
.hint { color: var(--muted); margin: .25rem 0 0; font-size: .9375rem; }
fieldset { border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin: 0 0 1rem; }
.choice { display: flex; gap: .5rem; align-items: baseline; margin: .5rem 0 0; } .choice label { font-weight: 400; }
.choice + .hint { margin: 0 0 .5rem 1.75rem; }
button { font: inherit; font-weight: 600; padding: .7rem 1.25rem; border-radius: 6px; border: 2px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #f79009; outline-offset: 2px; }
ul { padding-left: 1.25rem; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${esc(title)} - Roomwalk</title>
<style>${STYLES}</style>
</head>
<body>
<main>
<p class="brand">Roomwalk</p>
${body}
</main>
</body>
</html>`;
}

export function sendPage(reply: FastifyReply, services: Services, status: number, title: string, body: string) {
  let formTargets = "'self'";
  try {
    formTargets += ` ${new URL(services.config.publicUrl).origin}`;
  } catch {
    /* keep 'self' */
  }
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header(
      'content-security-policy',
      // img-src 'self': the page's own favicon (refused by default-src 'none', two console errors a load).
      `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action ${formTargets}; base-uri 'none'; frame-ancestors 'none'`,
    )
    .send(page(title, body));
}
