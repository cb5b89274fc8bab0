import { Duration, Effect } from "effect"
import { Chain } from "../chain/Chain"
import { Signer } from "../WalletKeys"
import { SweepRepository } from "./SweepRepository"
import { proceed } from "./SweepStep"
import type { SweeperSettings } from "./SweeperSettings"
import type { SweepTask } from "./SweepTask"

/**
 * `ready` -> `signed`: builds the transfer, signs its hash through the Signer port and returns
 * the task with the transaction stored. Nothing leaves the process before that state is saved:
 * should the save be lost, the signature was never sent anywhere and `ready` starts again.
 */
export const sign = (task: SweepTask, now: Date, settings: SweeperSettings) =>
  Effect.gen(function*() {
    const chain = yield* Chain
    const signer = yield* Signer
    const repo = yield* SweepRepository
    const feeLimit = task.preparedEnergy! * (yield* chain.parameters).energyFee
    // Counted from the chain's head, not our clock: the node judges expiration by its head.
    const head = yield* chain.headBlock
    const expiration = new Date(head.timestamp.getTime() + Duration.toMillis(settings.transactionValidity))
    const built = yield* chain.buildUsdtTransfer({ from: task.address, to: task.destination, amount: task.amount, feeLimit, expiration })
    if (built.expiration.getTime() - now.getTime() < Duration.toMillis(settings.minimumValidity)) {
      return yield* Effect.dieMessage(`the node built a transaction expiring at ${built.expiration.toISOString()}, too soon to broadcast safely`)
    }
    const sealedKey = yield* repo.signingKey(task.walletId)
    const signature = yield* signer.sign({ address: task.address, sealedKey }, Buffer.from(built.txid, "hex"))
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
