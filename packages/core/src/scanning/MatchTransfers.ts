import { type Context, Effect } from "effect"
import type { BlockTransfers } from "../chain/ChainModel"
import type { Network } from "../Network"
import type { ObservedTransfer, ScanLedger, ScannedBlock } from "./ScanLedger"

/**
 * Keeps, in each block, the transfers to tenant wallets, with the wallet each one goes to.
 * All recipients of all `blocks` are looked up at once, never one lookup per log, and not at
 * all when the blocks carry no transfers.
 */
export const matchTransfers = (
  ledger: Pick<Context.Tag.Service<typeof ScanLedger>, "walletsAt">,
  network: Network,
  blocks: ReadonlyArray<BlockTransfers>
): Effect.Effect<ReadonlyArray<ScannedBlock>> =>
  Effect.gen(function*() {
    const recipients = [...new Set(blocks.flatMap((b) => b.transfers.map((t) => t.to)))]
    const wallets = recipients.length === 0 ? [] : yield* ledger.walletsAt(network, recipients)
    const byAddress = new Map(wallets.map((w) => [w.address, w]))
    return blocks.map((b): ScannedBlock => ({
      block: b.block,
      transfers: b.transfers.flatMap((transfer): Array<ObservedTransfer> => {
        const wallet = byAddress.get(transfer.to)
        return wallet === undefined ? [] : [{ block: b.block, transfer, wallet }]
      })
    }))
  })
