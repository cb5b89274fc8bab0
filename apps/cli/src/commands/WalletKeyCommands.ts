import { type Kernel, Tenants, Wallets } from "@collector/core"
import { Console, Effect } from "effect"
import { UsageError } from "../CliError.js"
import type { Parsed } from "./TenantCommands.js"

const storeOf = (parsed: Parsed): Effect.Effect<Wallets.KeyStoreName | undefined, UsageError> => {
  const value = parsed.values.store
  if (value === undefined) return Effect.succeed(undefined)
  return typeof value === "string" && (Wallets.keyStoreNames as ReadonlyArray<string>).includes(value)
    ? Effect.succeed(value as Wallets.KeyStoreName)
    : Effect.fail(new UsageError({ message: `--store must be one of ${Wallets.keyStoreNames.join(", ")}, not "${String(value)}"` }))
}

/**
 * `tenant wallets <tenant> --network <n> [--store local|pkcs11] [--json]`: the tenant's wallets
 * with the store that holds each key (and a token key's label), grouped by store for a person.
 */
export const wallets = (parsed: Parsed) =>
  Effect.gen(function*() {
    const reference = parsed.positionals[2]
    if (reference === undefined) return yield* new UsageError({ message: "name the tenant: its ID or its name" })
    const network = parsed.values.network
    if (network !== "nile" && network !== "main") return yield* new UsageError({ message: `--network must be nile or main` })
    const store = yield* storeOf(parsed)
    const tenant = yield* (yield* Tenants.TenantRepository).find(reference)
    const entries = yield* (yield* Wallets.WalletKeyDirectory).list({ tenantId: tenant.id, network: network as Kernel.Network }, store)
    const json = entries.map((e) => ({ wallet_id: e.walletId, address: e.address, custom_id: e.customId, key_store: e.store, key_label: e.label }))
    if (parsed.values.json === true) return yield* Console.log(JSON.stringify(json))
    const lines = Wallets.keyStoreNames.flatMap((name) => {
      const of = json.filter((e) => e.key_store === name)
      return of.length === 0 ? [] : [`${name} (${of.length}):`, ...of.map((e) => `  ${e.wallet_id}\t${e.address}\t${e.custom_id}${e.key_label === null ? "" : `\t${e.key_label}`}`)]
    })
    yield* Console.log(lines.length === 0 ? `No wallets of tenant ${reference} on ${network}${store === undefined ? "" : ` in the ${store} store`}.` : lines.join("\n"))
  })
