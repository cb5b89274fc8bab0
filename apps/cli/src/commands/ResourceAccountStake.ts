import { type OwnStake, ResourceAccounts, SecretBox, Signer, type StakedResource } from "@collector/core"
import { LocalSigner } from "@collector/tron"
import { Console, Data, Effect, Option } from "effect"
import { UsageError } from "../CliError.js"
import { networkChain } from "./NetworkChain.js"
import { networkOf, tenantOf } from "./ResourceAccountCommands.js"
import type { Parsed } from "./TenantCommands.js"
import { parseTrx } from "./TrxAmount.js"

/** The stake could not be built, signed or broadcast: the node's or the signer's reason, exit 1. */
class StakeFailed extends Data.TaggedError("StakeFailed")<{ readonly message: string }> {}

const resourceOf = (parsed: Parsed): Effect.Effect<StakedResource, UsageError> => {
  const resource = parsed.values.resource ?? "energy"
  return resource === "energy" || resource === "bandwidth"
    ? Effect.succeed(resource === "energy" ? "ENERGY" : "BANDWIDTH")
    : Effect.fail(new UsageError({ message: "--resource must be energy or bandwidth" }))
}

const failed = (step: string) => (error: { readonly _tag: string; readonly reason: string }) => new StakeFailed({ message: `${step}: ${error._tag}: ${error.reason}` })

/**
 * `resource-account stake|unstake --network <n> [--tenant <t>] --trx <TRX> [--resource energy|bandwidth]`:
 * the account of exactly that place (no fallback to the network's: staking someone else's
 * account by omission would be a surprise) stakes or starts unstaking its own TRX. Built by the
 * network's nodes (TRON_<NETWORK>_NODE_URL(S), as the worker reads them), signed through the
 * Signer with the account's key, broadcast; the txid is printed.
 */
const ownStake = (direction: "stake" | "unstake") => (parsed: Parsed) =>
  Effect.gen(function*() {
    const network = yield* networkOf(parsed)
    const tenantId = yield* tenantOf(parsed)
    const balance = yield* parseTrx(parsed.values.trx)
    const resource = yield* resourceOf(parsed)
    const found = yield* (yield* ResourceAccounts).find(network, tenantId)
    if (Option.isNone(found)) {
      return yield* new StakeFailed({ message: `no resource account on ${network}${tenantId === null ? "" : ` for tenant ${tenantId}`}; make one with resource-account create` })
    }
    const account = found.value
    if (account.key.store !== "local") {
      return yield* new StakeFailed({ message: `${account.address}'s key is in a PKCS#11 token (${account.key.label}); the CLI signs only sealed keys so far` })
    }
    const chain = yield* networkChain(network)
    const ask: OwnStake = { owner: account.address, balance, resource }
    const built = yield* (direction === "stake" ? chain.buildStake(ask) : chain.buildUnstake(ask)).pipe(Effect.mapError(failed(`building the ${direction}`)))
    const signer = yield* Signer
    const signature = yield* signer.sign({ address: account.address, key: account.key }, Buffer.from(built.txid, "hex")).pipe(Effect.mapError(failed("signing")))
    const outcome = yield* chain.broadcast({ ...built, signatures: [Buffer.from(signature).toString("hex")] }).pipe(Effect.mapError(failed("broadcasting")))
    if (outcome._tag === "Rejected") return yield* new StakeFailed({ message: `the node refused the ${direction} ${built.txid}: ${outcome.code} ${outcome.message}` })
    const shown = { network, tenant_id: tenantId, address: account.address, resource: resource.toLowerCase(), sun: balance.toString(), txid: built.txid }
    if (parsed.values.json === true) return yield* Console.log(JSON.stringify(shown))
    yield* Console.log(`${direction === "stake" ? "Staked" : "Unstaking"} ${balance} SUN for ${shown.resource} on ${account.address}: ${built.txid}`)
  }).pipe(Effect.provideServiceEffect(Signer, Effect.map(SecretBox, LocalSigner.make)))

export const resourceAccountStakeCommands = { stake: ownStake("stake"), unstake: ownStake("unstake") }
