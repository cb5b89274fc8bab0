import { type Html, html } from "./Html.js"

export interface PageOptions {
  readonly title: string
  /** The navigation entry of this page. */
  readonly current?: string
  /** The session's anti-CSRF token, for the log-out form; absent on the login page and for bearer requests. */
  readonly csrf?: string
  /** Whether the page refreshes itself (pages without forms to fill). */
  readonly refresh?: boolean
}

const links: ReadonlyArray<readonly [string, string]> = [
  ["/console", "Overview"],
  ["/console/tenants", "Tenants"],
  ["/console/deliveries", "Deliveries"],
  ["/console/sweeps", "Sweeps"],
  ["/console/search", "Search"],
  ["/console/audit", "Audit"]
]

/** Every console page: one landmark each for navigation and content, a skip link, phone-width ready. */
export const page = (options: PageOptions, body: Html): Html => html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title} · Collector console</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<span class="brand">Collector console</span>
${options.current === undefined ? null : html`<nav aria-label="Console"><ul>${
  links.map(([href, label]) => html`<li><a href="${href}"${label === options.current ? html` aria-current="page"` : null}>${label}</a></li>`)
}</ul></nav>`}
${options.csrf === undefined ? null : html`<form method="post" action="/console/logout"><input type="hidden" name="csrf" value="${options.csrf}"><button class="secondary" type="submit">Log out</button></form>`}
</header>
<main id="main"${options.refresh === true ? html` data-refresh` : null}>
${body}
</main>
${options.refresh === true ? html`<p class="muted refreshed" aria-live="polite" id="refreshed">Refreshes every 15 seconds.</p>` : null}
</body>
</html>`
