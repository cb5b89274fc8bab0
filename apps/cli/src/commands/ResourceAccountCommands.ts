import { Delegation, Kernel, Secrets, Tenants } from "@collector/core"
import { LocalWalletKeys } from "@collector/tron"
import { Clock, Console, Data, Effect, Option } from "effect"
import { UsageError } from "../CliError.js"
import { networkChain } from "./NetworkChain.js"
import { openToken } from "./ResourceAccountToken.js"
import type { Parsed } from "./TenantCommands.js"

class NoResourceAccount extends Data.TaggedError("NoResourceAccount")<{ readonly message: string }> {}

export const networkOf = (parsed: Parsed) => {
  const network = parsed.values.network
  return network === "nile" || network === "main"
    ? Effect.succeed(network as Kernel.Network)
    : Effect.fail(new UsageError({ message: "--network must be nile or main" }))
}

export const tenantOf = (parsed: Parsed) =>
  Effect.gen(function*() {
    const reference = parsed.values.tenant
    if (reference === undefined) return null
    if (typeof reference !== "string") return yield* new UsageError({ message: "--tenant takes a tenant's ID or name" })
    return (yield* (yield* Tenants.TenantRepository).find(reference)).id as Kernel.TenantId
  })

/** What an operator may see of an account: its place, address and key store, never the sealed key. */
const view = (a: Delegation.StoredResourceAccount) => ({
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
    const all = (yield* (yield* Delegation.ResourceAccounts).list()).map(view)
    if (parsed.values.json === true) return yield* Console.log(JSON.stringify(all))
    yield* Console.log(all.length === 0 ? "No resource accounts." : all.map(line).join("\n"))
  })

/**
 * The account's energy stake at the node's head, in SUN: staked in all, lendable now, lent out.
 * None when the node cannot say: the account itself is still shown (with a warning), as the
 * database is what an operator most needs when a node is down.
 */
const stakeFigures = (network: Kernel.Network, address: string) =>
  Effect.gen(function*() {
    const chain = yield* networkChain(network)
    const [stake, lendable] = yield* Effect.all([chain.energyStake(address), chain.delegatableEnergyStake(address)], { concurrency: 2 })
    return { energy_staked_sun: stake.staked.toString(), energy_lendable_sun: lendable.toString(), energy_lent_sun: stake.lent.toString() }
  }).pipe(
    Effect.map(Option.some),
    Effect.catchTags({
      ChainUnavailable: (error) => Effect.as(Console.error(`warning: no staking figures (${error.reason})`), Option.none()),
      ChainRejected: (error) => Effect.as(Console.error(`warning: no staking figures (${error.reason})`), Option.none())
    })
  )

/** `resource-account show --network <n> [--tenant <t>] [--json]`: the account that lends energy there, and its stake. */
const show = (parsed: Parsed) =>
  Effect.gen(function*() {
    const network = yield* networkOf(parsed)
    const tenantId = yield* tenantOf(parsed)
    const found = yield* Delegation.resourceAccountFor(network, tenantId)
    if (Option.isNone(found)) {
      return yield* new NoResourceAccount({ message: `no resource account on ${network}${tenantId === null ? "" : ` for tenant ${tenantId} nor as the network's default`}` })
    }
    const shown = view(found.value)
    const figures = yield* stakeFigures(network, shown.address)
    const unknown = { energy_staked_sun: null, energy_lendable_sun: null, energy_lent_sun: null }
    if (parsed.values.json === true) return yield* Console.log(JSON.stringify({ ...shown, ...Option.getOrElse(figures, () => unknown) }))
    yield* Console.log(line(shown))
    if (Option.isSome(figures)) {
      const f = figures.value
      yield* Console.log(`energy stake (SUN): ${f.energy_staked_sun} staked, ${f.energy_lendable_sun} lendable now, ${f.energy_lent_sun} lent out`)
    }
  })

/** The local store seals a key for its address and never reads the wallet ID it is given. */
const noWallet = Kernel.WalletId.make("9223372036854775807")

/**
 * A new key for the account of `network`/`tenantId` in `store`: made here and sealed under the
 * master key (local), or made inside the PKCS#11 token, non-extractable, under the account's
 * label (pkcs11). The label is the account's place, so a second key for one place is refused by
 * the token as well as by the database.
 */
const generateKey = (store: "local" | "pkcs11", network: Kernel.Network, tenantId: Kernel.TenantId | null) =>
  store === "local"
    ? Effect.flatMap(Effect.all([Secrets.SecretBox, Kernel.Entropy]), ([box, entropy]) => LocalWalletKeys.make(box, entropy).generate(noWallet).pipe(Effect.orDie))
    : Effect.scoped(Effect.flatMap(openToken, ({ pkcs11, settings, token }) =>
      pkcs11.Pkcs11WalletKeys.generateLabelled(token, pkcs11.resourceAccountLabel(settings.labelPrefix, network, tenantId))))

/**
 * `resource-account create --network <n> [--tenant <t>] [--store local|pkcs11] [--json]`: a new
 * account for the network (or the tenant on it), its key sealed under the master key as a wallet
 * key is, or made in the PKCS#11 token of PKCS11_*, printed by its address (and token label) only.
 * A place that has one keeps it (exit 1, naming it): replacing an account would strand the stake
 * of the old one.
 */
const create = (parsed: Parsed) =>
  Effect.gen(function*() {
    const network = yield* networkOf(parsed)
    const tenantId = yield* tenantOf(parsed)
    const store = parsed.values.store ?? "local"
    if (store !== "local" && store !== "pkcs11") return yield* new UsageError({ message: "--store must be local or pkcs11" })
    const accounts = yield* Delegation.ResourceAccounts
    // Told before a key is made for nothing; `create` still refuses a second one made meanwhile.
    const existing = yield* accounts.find(network, tenantId)
    if (Option.isSome(existing)) return yield* new Delegation.ResourceAccountExists({ existing: existing.value })
    const generated = yield* generateKey(store, network, tenantId)
    const createdAt = new Date(yield* Clock.currentTimeMillis)
    const stored = yield* accounts.create({ network, tenantId, address: generated.address, key: generated.key, createdAt })
    const shown = view(stored)
    if (parsed.values.json === true) return yield* Console.log(JSON.stringify(shown))
    yield* Console.log(`${line(shown)}\nFund ${shown.address} with TRX, then stake it for energy: resource-account stake --network ${network} --trx <TRX>`)
  })

export const resourceAccountCommands = { list, show, create }
