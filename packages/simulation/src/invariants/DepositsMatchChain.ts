import { Effect } from "effect"
import { canonicalTokenTransfers } from "../CanonicalTransfers.js"
import type { Snapshot } from "../Snapshot.js"
import type { WorldParts } from "../WorldParts.js"

const keyOf = (txid: string, logIndex: number) => `${txid}:${logIndex}`

/**
 * Every USDT Transfer log to a tenant wallet on the final canonical chain is exactly one
 * deposit (a Transfer log of any other contract is none, and is reported as such), confirmed,
 * with its amount, wallet and block, except a log from a wallet of the same tenant (our own sweep
 * into a wallet of the tenant it swept for, told from the chain alone: only the service signs for
 * a wallet, and only sweeps); every other deposit is reverted; a deposit's revisions each
 * have exactly one event, numbered 1 to its current revision.
 */
export const depositsMatchChain = (world: WorldParts, snapshot: Snapshot) =>
  Effect.gen(function*() {
    const violations: Array<string> = []
    const { deposits, events, wallets } = snapshot
    for (const { network, sim } of world.networks) {
      const state = yield* sim.chain.state
      const walletAt = new Map(wallets.filter((w) => w.network === network).map((w) => [w.address, w]))
      const usdt = state.config.usdtContract
      const tokenLogs = canonicalTokenTransfers(state)
      // Transfer logs of other token contracts: never a deposit, whatever their recipient.
      const otherTokens = new Map(tokenLogs.filter((l) => l.contract !== usdt).map((l) => [keyOf(l.txid, l.logIndex), l]))
      const expected = new Map<string, (typeof tokenLogs)[number] & { readonly walletId: string; readonly tenantId: string }>()
      for (const log of tokenLogs) {
        if (log.contract !== usdt) continue
        const wallet = walletAt.get(log.to)
        if (wallet === undefined) continue
        // Only the service holds a wallet's key, and it signs only sweeps: a log from a wallet of
        // the same tenant is the tenant's money moving (a collection address that is its own
        // wallet), no deposit; from another tenant's wallet it is money arriving, a deposit.
        const ownSweep = walletAt.get(log.from)?.tenantId === wallet.tenantId
        if (!ownSweep) expected.set(keyOf(log.txid, log.logIndex), { ...log, walletId: wallet.id, tenantId: wallet.tenantId })
      }
      const found = new Map<string, number>()
      for (const deposit of deposits.filter((d) => d.network === network)) {
        const key = keyOf(deposit.txid, deposit.logIndex)
        found.set(key, (found.get(key) ?? 0) + 1)
        const log = expected.get(key)
        const other = otherTokens.get(key)
        if (other !== undefined || deposit.contract !== usdt) {
          violations.push(
            `${network}: deposit ${deposit.id} (${key}) is ${deposit.status} from a log of contract ${other?.contract ?? deposit.contract}, not USDT (${usdt})`
          )
          continue
        }
        if (log === undefined) {
          if (deposit.status !== "reverted") {
            violations.push(`${network}: deposit ${deposit.id} (${key}) is ${deposit.status} but its log is not on the canonical chain`)
          }
          continue
        }
        const figures = `deposit ${deposit.id} ${deposit.status} ${deposit.amount} in ${deposit.blockHash}; chain ${log.amount} in ${log.blockHash}`
        if (deposit.status !== "confirmed" || deposit.amount !== log.amount || deposit.blockHash !== log.blockHash || deposit.walletId !== log.walletId) {
          violations.push(`${network}: log ${key} on the canonical chain is not its confirmed deposit: ${figures}`)
        }
      }
      for (const [key, log] of expected) {
        const count = found.get(key) ?? 0
        if (count !== 1) violations.push(`${network}: log ${key} (${log.amount} to ${log.to}) is ${count} deposits, not 1`)
      }
    }
    // A log is one deposit whatever became of it: two for one log is a double booking even once reverted.
    const perLog = new Map<string, number>()
    for (const deposit of deposits) {
      const key = `${deposit.network}:${keyOf(deposit.txid, deposit.logIndex)}`
      perLog.set(key, (perLog.get(key) ?? 0) + 1)
    }
    for (const [key, count] of perLog) if (count > 1) violations.push(`log ${key} is stored as ${count} deposits`)
    for (const deposit of deposits) {
      const revisions = events.filter((e) => e.depositId === deposit.id).map((e) => e.revision ?? 0).sort((a, b) => a - b)
      const wanted = Array.from({ length: deposit.revision }, (_, i) => i + 1)
      if (revisions.join(",") !== wanted.join(",")) {
        violations.push(`deposit ${deposit.id} at revision ${deposit.revision} has events of revisions [${revisions.join(",")}], not [${wanted.join(",")}]`)
      }
    }
    return violations
  })
