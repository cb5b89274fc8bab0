import { Kernel, Tenants } from "@collector/core"
import { Console, Effect, Redacted } from "effect"
import { UsageError } from "../CliError.js"

export interface Parsed {
  readonly positionals: ReadonlyArray<string>
  readonly values: Readonly<Record<string, string | boolean | undefined>>
}

const text = (parsed: Parsed, name: string) => {
  const value = parsed.values[name]
  return typeof value === "string" && value.trim() !== "" ? Effect.succeed(value.trim()) : Effect.fail(new UsageError({ message: `--${name} is required` }))
}

const tenantRef = (parsed: Parsed) =>
  parsed.positionals[2] !== undefined ? Effect.succeed(parsed.positionals[2]) : Effect.fail(new UsageError({ message: "name the tenant: its ID or its name" }))

const network = (parsed: Parsed) =>
  Effect.flatMap(text(parsed, "network"), (value) =>
    value === "nile" || value === "main" ? Effect.succeed(value as Kernel.Network) : Effect.fail(new UsageError({ message: `--network must be nile or main, not "${value}"` })))

const print = (parsed: Parsed, json: unknown, human: string) => Console.log(parsed.values.json === true ? JSON.stringify(json) : human)

const describeTenant = (t: Tenants.TenantWithApps) => ({
  tenant_id: t.id,
  name: t.name,
  status: t.status,
  expires_at: t.expiresAt?.toISOString() ?? null,
  created_at: t.createdAt.toISOString(),
  apps: t.apps.map((a) => ({ network: a.network, app_id: a.appId, confirmation_rule: a.confirmationRule,
    deposit_minimum: a.depositMinimum === null ? null : a.depositMinimum.toString()
  }))
})

const create = (parsed: Parsed) =>
  Effect.gen(function*() {
    const name = yield* text(parsed, "name")
    const networks = Kernel.parseNetworkList(yield* text(parsed, "networks"))
    if (networks === undefined) return yield* new UsageError({ message: "--networks must be a comma-separated list of nile and main" })
    const { credentials, tenant } = yield* (yield* Tenants.TenantAdmin).create(name, networks)
    const apps = credentials.map((c) => ({
      network: c.network,
      app_id: c.appId,
      app_secret: Redacted.value(c.appSecret),
      webhook_key: Redacted.value(c.webhookKey)
    }))
    yield* print(
      parsed,
      { tenant_id: tenant.id, name: tenant.name, apps },
      [
        `Tenant ${tenant.id} "${tenant.name}" created. The secrets below are shown once: store them now.`,
        ...apps.map((a) => `  ${a.network}: app_id=${a.app_id} app_secret=${a.app_secret} webhook_key=${a.webhook_key}`)
      ].join("\n")
    )
  })

const list = (parsed: Parsed) =>
  Effect.gen(function*() {
    const tenants = (yield* (yield* Tenants.TenantAdmin).list).map(describeTenant)
    yield* print(
      parsed,
      tenants,
      tenants.length === 0
        ? "No tenants."
        : tenants.map((t) =>
          `${t.tenant_id}\t${t.name}\t${t.status}\texpires=${t.expires_at ?? "never"}\t` +
          t.apps.map((a) => `${a.network}:${a.app_id}:${a.confirmation_rule}`).join(" ")
        ).join("\n")
    )
  })

const expire = (parsed: Parsed) =>
  Effect.gen(function*() {
    const reference = yield* tenantRef(parsed)
    const at = yield* text(parsed, "at")
    const when = at === "never" ? null : new Date(at)
    if (when !== null && (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(at) || Number.isNaN(when.getTime()))) {
      return yield* new UsageError({ message: "--at must be an RFC 3339 time with a zone (e.g. 2027-01-01T00:00:00Z) or never" })
    }
    yield* (yield* Tenants.TenantAdmin).expire(reference, when)
    yield* Console.log(when === null ? `Tenant ${reference} no longer expires.` : `Tenant ${reference} expires at ${when.toISOString()}.`)
  })

const setStatus = (verb: "disable" | "enable" | "remove", done: string) => (parsed: Parsed) =>
  Effect.gen(function*() {
    const reference = yield* tenantRef(parsed)
    yield* (yield* Tenants.TenantAdmin)[verb](reference)
    yield* Console.log(`Tenant ${reference} ${done}.`)
  })

const rotateSecret = (parsed: Parsed) =>
  Effect.gen(function*() {
    const rotated = yield* (yield* Tenants.TenantAdmin).rotateSecret(yield* tenantRef(parsed), yield* network(parsed))
    const secret = Redacted.value(rotated.appSecret)
    yield* print(
      parsed,
      { network: rotated.network, app_id: rotated.appId, app_secret: secret },
      `New app_secret for app ${rotated.appId} (${rotated.network}), shown once; earlier access tokens are revoked:\n  ${secret}`
    )
  })

const rotateWebhookKey = (parsed: Parsed) =>
  Effect.gen(function*() {
    const rotated = yield* (yield* Tenants.TenantAdmin).rotateWebhookKey(yield* tenantRef(parsed), yield* network(parsed))
    const key = Redacted.value(rotated.webhookKey)
    yield* print(
      parsed,
      { network: rotated.network, app_id: rotated.appId, webhook_key: key },
      `New webhook_key for app ${rotated.appId} (${rotated.network}), shown once:\n  ${key}`
    )
  })

const setConfirmation = (parsed: Parsed) =>
  Effect.gen(function*() {
    const reference = yield* tenantRef(parsed)
    const net = yield* network(parsed)
    const rule = yield* text(parsed, "rule")
    yield* (yield* Tenants.TenantAdmin).setConfirmationRule(reference, net, rule)
    yield* Console.log(`Tenant ${reference} on ${net} now confirms deposits by ${rule}.`)
  })

const setDepositMinimum = (parsed: Parsed) =>
  Effect.gen(function*() {
    const reference = yield* tenantRef(parsed)
    const net = yield* network(parsed)
    const amount = yield* text(parsed, "amount")
    if (amount !== "none" && !/^\d{1,30}$/.test(amount)) {
      return yield* new UsageError({ message: "--amount must be an amount in base units (digits only; 1000000 is 1 USDT) or none" })
    }
    const minimum = amount === "none" ? null : BigInt(amount)
    yield* (yield* Tenants.TenantAdmin).setDepositMinimum(reference, net, minimum)
    yield* Console.log(
      minimum === null
        ? `Tenant ${reference} on ${net} now follows the network's deposit minimum.`
        : `Tenant ${reference} on ${net} now ignores transfers under ${minimum} base units (they are not booked or announced).`
    )
  })

export const tenantCommands = {
  create,
  list,
  disable: setStatus("disable", "disabled"),
  enable: setStatus("enable", "enabled"),
  delete: setStatus("remove", "deleted"),
  expire,
  "rotate-secret": rotateSecret,
  "rotate-webhook-key": rotateWebhookKey,
  "set-confirmation": setConfirmation,
  "set-deposit-minimum": setDepositMinimum
} as const
