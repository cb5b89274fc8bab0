import { HttpRouter, HttpServerRequest, HttpServerResponse, UrlParams } from "@effect/platform"
import { Effect, Option } from "effect"
import { type ConsoleCaller, currentCaller, sessionCookie } from "./ConsoleAuth.js"
import { describeAction, parseAction, runAction } from "./ConsoleActions.js"
import { refreshScript, styleSheet } from "./ConsoleAssets.js"
import type { ConsoleSettings } from "./ConsoleSettings.js"
import { type Html, html } from "./Html.js"
import { page } from "./Layout.js"
import { OperatorAccess, sessionTtlMillis } from "./OperatorAccess.js"
import * as Pages from "./Pages.js"

/**
 * Every answer is private to its caller and never cached; pages load nothing from elsewhere,
 * run no inline script and cannot be framed.
 */
const headers = {
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer"
}

const respond = (body: Html, status = 200) => HttpServerResponse.html(body.text).pipe(HttpServerResponse.setStatus(status), HttpServerResponse.setHeaders(headers))

/** Without a usable credential: a browser is sent to the login page; anything else gets a bare 401. */
const unauthenticated = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  if (request.method === "GET" && request.headers["authorization"] === undefined) {
    return HttpServerResponse.redirect("/console/login", { status: 303, headers })
  }
  return HttpServerResponse.text("401 Unauthorized", { status: 401, headers: { ...headers, "www-authenticate": "Bearer realm=\"console\"" } })
})

const loginPage = (message?: string) =>
  page({ title: "Log in" }, html`<h1>Log in</h1>
${message === undefined ? null : html`<p class="notice error" role="alert">${message}</p>`}
<form method="post" action="/console/login">
<label for="token">Operator token</label>
<input type="password" id="token" name="token" autocomplete="off" required>
<p class="muted">Make one with <code>npm run -s cli -- operator token create</code>.</p>
<button type="submit">Log in</button>
</form>`)

const form = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => request.urlParamsBody).pipe(
  Effect.map((params) => Object.fromEntries(Object.keys(UrlParams.toRecord(params)).map((key) => [key, Option.getOrUndefined(UrlParams.getFirst(params, key))]))),
  Effect.orElseSucceed((): Record<string, string | undefined> => ({}))
)

/** A page for a signed-in caller, with its navigation. */
const authed = <E, R>(title: string, current: string, body: (caller: ConsoleCaller) => Effect.Effect<Html, E, R>, refresh = true) =>
  Effect.flatMap(currentCaller, (found): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
    Option.isNone(found)
      ? unauthenticated
      : Effect.map(body(found.value), (content) => respond(page({ title, current, csrf: Option.getOrUndefined(found.value.csrf), refresh }, content))))

/** A POST from a session must carry its anti-CSRF token; a bearer request needs none. */
const csrfHolds = (caller: ConsoleCaller, fields: Record<string, string | undefined>) => Option.match(caller.csrf, { onNone: () => true, onSome: (token) => fields["csrf"] === token })

const hidden = (fields: Record<string, string | undefined>) =>
  Object.entries(fields).flatMap(([name, value]) => value === undefined ? [] : [html`<input type="hidden" name="${name}" value="${value}">`])

/** The console's routes under `/console`. */
export const router = (settings: ConsoleSettings) =>
  HttpRouter.empty.pipe(
    HttpRouter.get("/console/assets/console.css", Effect.succeed(HttpServerResponse.text(styleSheet, { contentType: "text/css; charset=utf-8", headers }))),
    HttpRouter.get("/console/assets/console.js", Effect.succeed(HttpServerResponse.text(refreshScript, { contentType: "text/javascript; charset=utf-8", headers }))),
    HttpRouter.get("/console/login", Effect.succeed(respond(loginPage()))),
    HttpRouter.post(
      "/console/login",
      Effect.gen(function*() {
        const fields = yield* form
        const token = (fields["token"] ?? "").trim()
        const opened = yield* (yield* OperatorAccess).openSession(token).pipe(Effect.option)
        if (Option.isNone(opened)) return respond(loginPage("That token is unknown, expired or revoked."), 401)
        return HttpServerResponse.redirect("/console", { status: 303, headers }).pipe(
          HttpServerResponse.unsafeSetCookie(sessionCookie, opened.value.session, {
            httpOnly: true,
            sameSite: "strict",
            secure: settings.secureCookie,
            path: "/console",
            maxAge: `${Math.floor(sessionTtlMillis / 1000)} seconds`
          })
        )
      })
    ),
    HttpRouter.post(
      "/console/logout",
      Effect.flatMap(currentCaller, Option.match({
        onNone: () => unauthenticated,
        onSome: (caller) =>
          Effect.gen(function*() {
            if (!csrfHolds(caller, yield* form)) return respond(html`<p>Refused: the form is stale; reload the page.</p>`, 403)
            // Ends this session only; the token and its other sessions stay.
            if (caller.presented === "session") yield* (yield* OperatorAccess).endSession(caller.operator.credential.id)
            return HttpServerResponse.redirect("/console/login", { status: 303, headers }).pipe(
              HttpServerResponse.unsafeSetCookie(sessionCookie, "", { httpOnly: true, sameSite: "strict", secure: settings.secureCookie, path: "/console", maxAge: 0 })
            )
          })
      }))
    ),
    HttpRouter.get("/console", authed("Overview", "Overview", () => Pages.overview)),
    HttpRouter.get("/console/tenants", authed("Tenants", "Tenants", () => Pages.tenants)),
    HttpRouter.get("/console/deliveries", authed("Deliveries", "Deliveries", () => Pages.deliveries)),
    HttpRouter.get("/console/sweeps", authed("Sweeps", "Sweeps", () => Pages.sweeps)),
    HttpRouter.get("/console/audit", authed("Audit", "Audit", () => Pages.audit)),
    HttpRouter.get(
      "/console/search",
      authed("Search", "Search", () =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          Pages.search(new URL(request.url, "http://console").searchParams.get("q") ?? "")), false)
    ),
    HttpRouter.get(
      "/console/confirm",
      authed("Confirm", "", (caller) =>
        Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
          const fields = Object.fromEntries(new URL(request.url, "http://console").searchParams)
          const action = parseAction(fields)
          if (typeof action === "string") return html`<h1>Confirm</h1><p class="notice error" role="alert">${action}</p>`
          return html`<h1>Confirm</h1>
<p>${describeAction(action)}</p>
<form method="post" action="/console/actions">
${hidden({ action: fields["action"], tenant: fields["tenant"], network: fields["network"], event: fields["event"], sweep: fields["sweep"], csrf: Option.getOrUndefined(caller.csrf) })}
<button type="submit">Confirm</button> <a href="/console">Cancel</a>
</form>`
        }), false)
    ),
    HttpRouter.post(
      "/console/actions",
      Effect.flatMap(currentCaller, Option.match({
        onNone: () => unauthenticated,
        onSome: (caller) =>
          Effect.gen(function*() {
            const fields = yield* form
            const chrome = { title: "Action", current: "", csrf: Option.getOrUndefined(caller.csrf) }
            if (!csrfHolds(caller, fields)) return respond(page(chrome, html`<p class="notice error" role="alert">Refused: the form is stale; reload the page and confirm again.</p>`), 403)
            const action = parseAction(fields)
            if (typeof action === "string") return respond(page(chrome, html`<p class="notice error" role="alert">${action}</p>`), 400)
            const outcome = yield* runAction(caller.operator, action)
            return respond(page(chrome, html`<h1>Action</h1><p class="notice" role="status">${describeAction(action)}</p><p>Outcome: <strong>${outcome}</strong></p><p><a href="/console/audit">See the audit trail</a></p>`))
          })
      }))
    )
  )
