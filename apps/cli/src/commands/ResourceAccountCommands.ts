import { type Network, resourceAccountFor, ResourceAccounts, type StoredResourceAccount, type TenantId, TenantRepository } from "@collector/core"
import { Console, Data, Effect, Option } from "effect"
import { UsageError } from "../CliError.js"
import type { Parsed } from "./TenantCommands.js"

class NoResourceAccount extends Data.TaggedError("NoResourceAccount")<{ readonly message: string }> {}

const networkOf = (parsed: Parsed) => {
  const network = parsed.values.network
  return network === "nile" || network === "main"
    ? Effect.succeed(network as Network)
    : Effect.fail(new UsageError({ message: "--network must be nile or main" }))
}

const tenantOf = (parsed: Parsed) =>
  Effect.gen(function*() {
    const reference = parsed.values.tenant
    if (reference === undefined) return null
    if (typeof reference !== "string") return yield* new UsageError({ message: "--tenant takes a tenant's ID or name" })
    return (yield* (yield* TenantRepository).find(reference)).id as TenantId
  })

/** What an operator may see of an account: its place, address and key store, never the sealed key. */
const view = (a: StoredResourceAccount) => ({
  network: a.network,
  tenant_id: a.tenantId,
  address: a.address,
  key_store: a.key.store,
  key_label: a.key.store === "pkcs11" ? a.key.label : null,
  created_at: a.createdAt.toISOString()
})

const line = (a: ReturnType<typeof view>) =>
  `${a.network}\t${a.tenant_id ?? "(network default)"}\t${a.address}\t${a.key_store}${a.key_label === null ? "" : `\t${a.key_label}`}`

/** `resource-account list [--json]`: every resource account. */
const list = (parsed: Parsed) =>
  Effect.gen(function*() {
    const all = (yield* (yield* ResourceAccounts).list()).map(view)
    if (parsed.values.json === true) return yield* Console.log(JSON.stringify(all))
    yield* Console.log(all.length === 0 ? "No resource accounts." : all.map(line).join("\n"))
  })

/** `resource-account show --network <n> [--tenant <t>] [--json]`: the account that lends energy there. */
const show = (parsed: Parsed) =>
  Effect.gen(function*() {
    const network = yield* networkOf(parsed)
    const tenantId = yield* tenantOf(parsed)
    const found = yield* resourceAccountFor(network, tenantId)
    if (Option.isNone(found)) {
      return yield* new NoResourceAccount({ message: `no resource account on ${network}${tenantId === null ? "" : ` for tenant ${tenantId} nor as the network's default`}` })
    }
    const shown = view(found.value)
    if (parsed.values.json === true) return yield* Console.log(JSON.stringify(shown))
    yield* Console.log(line(shown))
  })

export const resourceAccountCommands = { list, show }
