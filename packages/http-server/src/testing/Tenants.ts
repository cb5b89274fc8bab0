import { Tenants } from "@collector/core"
import { Duration, Effect, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { type Credentials, type RawResponse, send, signedHeaders } from "./RawClient.js"

export const tokenTarget = "/open/v1/auth/token"

export interface TestApp extends Credentials {
  readonly network: string
  readonly webhookKey: string
}

export interface TestTenant {
  readonly name: string
  readonly id: string
  /** One app credential per requested network, in the same order. */
  readonly apps: ReadonlyArray<TestApp>
  readonly app: TestApp
}

/** Creates a tenant with a unique name through the operator's TenantAdmin. */
export const provisionTenant = (networks: ReadonlyArray<"nile" | "main"> = ["nile"]) =>
  Effect.gen(function*() {
    const admin = yield* Tenants.TenantAdmin
    const name = `tenant-${randomBytes(6).toString("hex")}`
    const created = yield* Effect.orDie(admin.create(name, networks))
    const apps = created.credentials.map((c): TestApp => ({
      appId: c.appId,
      secret: Redacted.value(c.appSecret),
      webhookKey: Redacted.value(c.webhookKey),
      network: c.network
    }))
    return { name, id: created.tenant.id, apps, app: apps[0]! } satisfies TestTenant
  })

export const nowSeconds = () => Math.floor(Date.now() / 1000)

/** A correctly signed token request, with optional extra header lines. */
export const requestToken = (
  url: string,
  app: Credentials,
  options: { readonly timestamp?: string; readonly extraHeaders?: ReadonlyArray<readonly [string, string]> } = {}
) =>
  send(url, {
    method: "POST",
    target: tokenTarget,
    headers: [...signedHeaders(app, { method: "POST", target: tokenTarget, timestamp: options.timestamp }), ...(options.extraHeaders ?? [])]
  })

/** Repeats `attempt` until `done` holds or `within` passes; returns the last result. */
export const pollUntil = <A, E, R>(
  attempt: Effect.Effect<A, E, R>,
  done: (a: A) => boolean,
  within: Duration.DurationInput = "1 second"
) =>
  Effect.gen(function*() {
    const deadline = Date.now() + Duration.toMillis(within)
    for (;;) {
      const result = yield* attempt
      if (done(result) || Date.now() >= deadline) return result
      yield* Effect.sleep("25 millis")
    }
  })

/** Waits until early in a wall-clock second, so a second boundary cannot fall inside the next request. */
export const startOfSecond = Effect.suspend(() => {
  const ms = Date.now() % 1000
  return ms < 300 ? Effect.void : Effect.sleep(Duration.millis(1010 - ms))
})

export type { RawResponse }
