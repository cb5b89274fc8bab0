import { type Context, Effect, Metric } from "effect"
import type { BlockTransfers } from "../chain/ChainModel.js"
import type { Network } from "../kernel/Network.js"
import { ignoredTransfer, type IgnoredTransfer } from "./DepositMinimum.js"
import type { ObservedTransfer, ScanLedger, ScannedBlock, SweepTransaction } from "./ScanLedger.js"
import { depositsIgnored } from "./ScanMetrics.js"

/** The transfer is the log of our own sweep into a wallet of the tenant it swept for. */
const isOwnSweep = (observed: ObservedTransfer, sweeps: ReadonlyMap<string, SweepTransaction>) => {
  const sweep = sweeps.get(observed.transfer.txid)
  return sweep !== undefined && sweep.tenantId === observed.wallet.tenantId && sweep.from === observed.transfer.from &&
    sweep.to === observed.transfer.to
}

/** The transfer out of a wallet is the one its sweep task signed: from the task's wallet to its destination. */
const isSweepOut = (observed: ObservedTransfer, sweeps: ReadonlyMap<string, SweepTransaction>) => {
  const sweep = sweeps.get(observed.transfer.txid)
  return sweep !== undefined && sweep.tenantId === observed.wallet.tenantId && sweep.from === observed.transfer.from &&
    sweep.to === observed.transfer.to
}

/**
 * Sorts, in each block, the transfers to tenant wallets into deposits and our own sweeps. A
 * sweep into a wallet of the tenant it swept for (a collection address that is one of the
 * tenant's wallets) is the tenant's money moving between its own wallets, not a deposit: it is
 * never stored, booked or announced, whichever block it lands in; only the balance of the wallet
 * it went to is due for a refresh. The same sweep into another tenant's wallet is money arriving
 * from outside for that tenant, and stays a deposit.
 *
 * A transfer that is not our own sweep and whose value makes it no deposit (`DepositMinimum.ts`:
 * value 0, or under the tenant's or network's minimum) is dropped here, counted and never stored.
 *
 * A transfer out of one of our wallets whose transaction no sweep task holds is an unaccounted
 * outflow (`ScannedBlock.outflows`), whatever its value: either a sweep whose record a lost
 * database write took away (the reconciliation pass gives it back to its task) or a key used
 * outside the service.
 *
 * All senders and recipients of all `blocks` are looked up at once, never one lookup per log,
 * and not at all when the blocks carry no transfers; the sweeps among the matched transactions
 * likewise.
 */
export const matchTransfers = (
  ledger: Pick<Context.Tag.Service<typeof ScanLedger>, "walletsAt" | "sweepsAmong">,
  network: Network,
  blocks: ReadonlyArray<BlockTransfers>,
  options: {
    /** The network's deposit minimum (base units; 0: none). */
    readonly networkMinimum: bigint
    /** Whether to count what was dropped: the scanner's first look, not the integrity check's re-reads. */
    readonly countIgnored: boolean
  }
): Effect.Effect<ReadonlyArray<ScannedBlock>> =>
  Effect.gen(function*() {
    const addresses = [...new Set(blocks.flatMap((b) => b.transfers.flatMap((t) => [t.to, t.from])))]
    const wallets = addresses.length === 0 ? [] : yield* ledger.walletsAt(network, addresses)
    const byAddress = new Map(wallets.map((w) => [w.address, w]))
    const matched = blocks.map((b) => ({
      block: b.block,
      transfers: b.transfers.flatMap((transfer): Array<ObservedTransfer> => {
        const wallet = byAddress.get(transfer.to)
        return wallet === undefined ? [] : [{ block: b.block, transfer, wallet }]
      }),
      outgoing: b.transfers.flatMap((transfer): Array<ObservedTransfer> => {
        const wallet = byAddress.get(transfer.from)
        return wallet === undefined ? [] : [{ block: b.block, transfer, wallet }]
      })
    }))
    const txids = [...new Set(matched.flatMap((b) => [...b.transfers, ...b.outgoing].map((t) => t.transfer.txid)))]
    const sweeps = new Map((txids.length === 0 ? [] : yield* ledger.sweepsAmong(network, txids)).map((s) => [s.txid, s]))
    const ignored = new Map<IgnoredTransfer, number>()
    const scanned = matched.map((b): ScannedBlock => {
      const deposits: Array<ObservedTransfer> = []
      const ownSweeps: Array<ObservedTransfer> = []
      for (const t of b.transfers) {
        if (isOwnSweep(t, sweeps)) {
          ownSweeps.push(t)
          continue
        }
        const reason = ignoredTransfer(t.transfer.amount, t.wallet.depositMinimum, options.networkMinimum)
        if (reason === undefined) deposits.push(t)
        else ignored.set(reason, (ignored.get(reason) ?? 0) + 1)
      }
      const outflows = b.outgoing.filter((t) => !isSweepOut(t, sweeps))
      return { block: b.block, transfers: deposits, ownSweeps, outflows }
    })
    if (options.countIgnored) for (const [reason, count] of ignored) yield* Metric.incrementBy(depositsIgnored(network, reason), count)
    return scanned
  })
