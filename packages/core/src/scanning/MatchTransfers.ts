import { type Context, Effect } from "effect"
import type { BlockTransfers } from "../chain/ChainModel"
import type { Network } from "../Network"
import type { ObservedTransfer, ScanLedger, ScannedBlock } from "./ScanLedger"

/**
 * Keeps, in each block, the transfers to tenant wallets that are deposits, with the wallet each
 * one goes to. A transfer made by one of our own sweeps into a wallet of the tenant it swept
 * for (a collection address that is one of the tenant's wallets) is the tenant's money moving
 * between its own wallets, not a deposit: it is left out, so it is never stored, booked or
 * announced, whichever block it lands in. The same sweep into another tenant's wallet is money
 * arriving from outside for that tenant, and stays a deposit.
 *
 * All recipients of all `blocks` are looked up at once, never one lookup per log, and not at
 * all when the blocks carry no transfers; the sweeps among the matched transactions likewise.
 */
export const matchTransfers = (
  ledger: Pick<Context.Tag.Service<typeof ScanLedger>, "walletsAt" | "sweepsAmong">,
  network: Network,
  blocks: ReadonlyArray<BlockTransfers>
): Effect.Effect<ReadonlyArray<ScannedBlock>> =>
  Effect.gen(function*() {
    const recipients = [...new Set(blocks.flatMap((b) => b.transfers.map((t) => t.to)))]
    const wallets = recipients.length === 0 ? [] : yield* ledger.walletsAt(network, recipients)
    const byAddress = new Map(wallets.map((w) => [w.address, w]))
    const matched = blocks.map((b) => ({
      block: b.block,
      transfers: b.transfers.flatMap((transfer): Array<ObservedTransfer> => {
        const wallet = byAddress.get(transfer.to)
        return wallet === undefined ? [] : [{ block: b.block, transfer, wallet }]
      })
    }))
    const txids = [...new Set(matched.flatMap((b) => b.transfers.map((t) => t.transfer.txid)))]
    const sweeps = txids.length === 0 ? [] : yield* ledger.sweepsAmong(network, txids)
    if (sweeps.length === 0) return matched
    const sweptFor = new Map(sweeps.map((s) => [s.txid, s.tenantId]))
    return matched.map((b): ScannedBlock => ({
      block: b.block,
      transfers: b.transfers.filter((t) => sweptFor.get(t.transfer.txid) !== t.wallet.tenantId)
    }))
  })
