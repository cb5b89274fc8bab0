import { type Chain, Delegation, Secrets, type Wallets } from "@collector/core"
import { LocalSigner } from "@collector/tron"
import { Console, Data, Effect, Option } from "effect"
import { UsageError } from "../CliError.js"
import { networkChain } from "./NetworkChain.js"
import { networkOf, tenantOf } from "./ResourceAccountCommands.js"
import { openToken } from "./ResourceAccountToken.js"
import type { Parsed } from "./TenantCommands.js"
import { parseTrx } from "./TrxAmount.js"

/** The stake could not be built, signed or broadcast: the node's or the signer's reason, exit 1. */
class StakeFailed extends Data.TaggedError("StakeFailed")<{ readonly message: string }> {}

const resourceOf = (parsed: Parsed): Effect.Effect<Chain.StakedResource, UsageError> => {
  const resource = parsed.values.resource ?? "energy"
  return resource === "energy" || resource === "bandwidth"
    ? Effect.succeed(resource === "energy" ? "ENERGY" : "BANDWIDTH")
    : Effect.fail(new UsageError({ message: "--resource must be energy or bandwidth" }))
}

const failed = (step: string) => (error: { readonly _tag: string; readonly reason: string }) => new StakeFailed({ message: `${step}: ${error._tag}: ${error.reason}` })

/**
 * The signer of the account's own key where it lives: the sealed key opened under the master key
 * (local), or the PKCS#11 token of PKCS11_*, which signs inside itself (pkcs11). The token's
 * signer still routes a local key to the local one; only the token's keys need the token opened.
 */
const signerFor = (key: Wallets.WalletKey) =>
  Effect.flatMap(Secrets.SecretBox, (box) =>
    key.store === "local"
      ? Effect.succeed(LocalSigner.make(box))
      : Effect.map(openToken, ({ pkcs11, token }): Wallets.Signer["Type"] => pkcs11.Pkcs11Signer.make(token, LocalSigner.make(box))))

/**
 * `resource-account stake|unstake --network <n> [--tenant <t>] --trx <TRX> [--resource energy|bandwidth]`:
 * the account of exactly that place (no fallback to the network's: staking someone else's
 * account by omission would be a surprise) stakes or starts unstaking its own TRX. Built by the
 * network's nodes (TRON_<NETWORK>_NODE_URL(S), as the worker reads them), signed through the
 * account's own key (sealed, or in the PKCS#11 token of PKCS11_*), broadcast; the txid is printed.
 */
const ownStake = (direction: "stake" | "unstake") => (parsed: Parsed) =>
  Effect.gen(function*() {
    const network = yield* networkOf(parsed)
    const tenantId = yield* tenantOf(parsed)
    const balance = yield* parseTrx(parsed.values.trx)
    const resource = yield* resourceOf(parsed)
    const found = yield* (yield* Delegation.ResourceAccounts).find(network, tenantId)
    if (Option.isNone(found)) {
      return yield* new StakeFailed({ message: `no resource account on ${network}${tenantId === null ? "" : ` for tenant ${tenantId}`}; make one with resource-account create` })
    }
    const account = found.value
    // The token is opened (and its PIN checked) before anything is built.
    const signer = yield* signerFor(account.key)
    const chain = yield* networkChain(network)
    const ask: Chain.OwnStake = { owner: account.address, balance, resource }
    const built = yield* (direction === "stake" ? chain.buildStake(ask) : chain.buildUnstake(ask)).pipe(Effect.mapError(failed(`building the ${direction}`)))
    const signature = yield* signer.sign({ address: account.address, key: account.key }, Buffer.from(built.txid, "hex")).pipe(Effect.mapError(failed("signing")))
    const outcome = yield* chain.broadcast({ ...built, signatures: [Buffer.from(signature).toString("hex")] }).pipe(Effect.mapError(failed("broadcasting")))
    if (outcome._tag === "Rejected") return yield* new StakeFailed({ message: `the node refused the ${direction} ${built.txid}: ${outcome.code} ${outcome.message}` })
    const shown = { network, tenant_id: tenantId, address: account.address, resource: resource.toLowerCase(), sun: balance.toString(), txid: built.txid }
    if (parsed.values.json === true) return yield* Console.log(JSON.stringify(shown))
    yield* Console.log(`${direction === "stake" ? "Staked" : "Unstaking"} ${balance} SUN for ${shown.resource} on ${account.address}: ${built.txid}`)
  }).pipe(Effect.scoped)

export const resourceAccountStakeCommands = { stake: ownStake("stake"), unstake: ownStake("unstake") }
