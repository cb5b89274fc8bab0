import { Duration, Effect } from "effect"
import { Chain } from "../chain/Chain.js"
import type { WalletKey } from "../wallets/WalletKey.js"
import { Signer } from "../wallets/WalletKeys.js"
import type { PreparedReading } from "./Preparation.js"
import { SweepRepository } from "./SweepRepository.js"
import { energyLeft } from "./ResourcesLeft.js"
import { end, proceed } from "./SweepStep.js"
import type { ChainView } from "./ChainView.js"
import type { SweeperSettings } from "./SweeperSettings.js"
import type { SweepTask } from "./SweepTask.js"

/** How many recent blocks a node accepts as a transaction's reference (java-tron's recent-block store). */
const tapos = 65_536n

/**
 * `ready` -> `signed`: builds the transfer, signs its hash through the Signer port and returns
 * the task with the transaction stored. Nothing leaves the process before that state is saved:
 * should the save be lost, the signature was never sent anywhere and `ready` starts again.
 *
 * `prepared` is what the same step read before (the preparation's): its resource figures (and
 * the TRX balance, when it read it), taken moments before with nothing of ours in between, so as
 * recent as a new reading would be, and the wallet's sealed key, read beside it. A task signed in
 * a later step (after a rental, say) reads both again.
 */
export const sign = (
  task: SweepTask,
  now: Date,
  settings: SweeperSettings,
  view: ChainView,
  prepared?: { readonly reading: PreparedReading; readonly key: Effect.Effect<WalletKey> }
) =>
  Effect.gen(function*() {
    const chain = yield* Chain
    const signer = yield* Signer
    const repo = yield* SweepRepository
    const { energyFee } = view.parameters
    const feeLimit = task.preparedEnergy! * energyFee
    // The resources prepared must still be there: fee_limit covers the whole transfer, so energy
    // gone since preparation would be paid in the wallet's TRX, past what the task allows.
    const reading = prepared?.reading
    const left = energyLeft(reading?.resources ?? (yield* chain.resources(task.address)))
    const shortfall = task.preparedEnergy! - left
    if (shortfall > 0n) {
      const burn = shortfall * energyFee
      const allowed = task.feeSource === "wallet_trx" ? task.maxWalletTrxFee ?? 0n : 0n
      if (burn > allowed || burn > (reading?.trx ?? (yield* chain.trxBalance(task.address)).trx)) {
        return end(task, now, "failed", `the wallet's energy fell to ${left} since preparation: signing would burn ${burn} SUN of its TRX`)
      }
    }
    // Counted from the chain's head, not our clock: the node judges expiration by its head.
    const head = view.head
    // The reference block must be one the broadcasting node has among its last 65,536 blocks
    // (TaPoS); a solidity node ahead of the full node, or far behind it, would make the
    // transaction unlandable, so nothing is signed until they agree again.
    if (view.solidified.number > head.number || head.number - view.solidified.number >= tapos) {
      return yield* Effect.dieMessage(
        `the solidified block ${view.solidified.number} is no TaPoS reference for the head block ${head.number}: nothing signed`
      )
    }
    const expiration = new Date(head.timestamp.getTime() + Duration.toMillis(settings.transactionValidity))
    // Named for TaPoS: the solidified block cannot be dropped by a reorganisation, so the
    // transaction can never be refused for naming a block that left the chain.
    const built = yield* chain.buildUsdtTransfer({
      from: task.address,
      to: task.destination,
      amount: task.amount,
      feeLimit,
      expiration,
      reference: view.solidified
    })
    if (built.expiration.getTime() - head.timestamp.getTime() < Duration.toMillis(settings.minimumValidity)) {
      return yield* Effect.dieMessage(`the transfer built expires at ${built.expiration.toISOString()}, too soon to broadcast safely`)
    }
    const key = yield* (prepared?.key ?? repo.signingKey(task.walletId))
    const signature = yield* signer.sign({ address: task.address, key }, Buffer.from(built.txid, "hex"))
    return proceed(task, now, {
      status: "signed",
      transaction: {
        txid: built.txid,
        rawDataHex: built.rawDataHex,
        signature: Buffer.from(signature).toString("hex"),
        expiration: built.expiration,
        feeLimit
      }
    })
  })
