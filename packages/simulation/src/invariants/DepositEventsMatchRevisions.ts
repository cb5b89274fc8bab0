import { DepositRecord } from "@collector/api"
import { Either, Schema } from "effect"
import type { CanonicalTransfer } from "../CanonicalTransfers.js"
import type { DepositHistory } from "../DepositHistory.js"
import type { Snapshot } from "../Snapshot.js"

const decodeRecord = Schema.decodeUnknownEither(Schema.parseJson(DepositRecord))

/** The event type each status is announced with, as the contract lists them. */
const eventTypeOf: Readonly<Record<string, string>> = { confirmed: "deposit.confirmed", reverted: "deposit.reverted" }

/** A key of a log on one network: the chain facts are keyed so. */
export const logKey = (network: string, txid: string, logIndex: number) => `${network}:${txid}:${logIndex}`

/**
 * Every deposit event's payload, decoded with the published `DepositRecord` schema, says member
 * by member what the chain and the store say of that revision: the row committed at the event's
 * revision (from the change feed) under that revision's event ID and type, its wallet as stored,
 * and, where the log is on the final canonical chain in the block the revision names, that log
 * (amount, sender, recipient, contract, position, block and block time). Expected values are
 * written out here from those sources; nothing is built by the core's own record function.
 */
export const depositEventsMatchRevisions = (
  snapshot: Snapshot,
  history: DepositHistory,
  chainLogs: ReadonlyMap<string, CanonicalTransfer>
): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const wallets = new Map(snapshot.wallets.map((w) => [w.id as string, w]))
  for (const event of snapshot.events) {
    if (event.depositId === null) continue
    const revision = event.revision ?? 0
    const row = history.at(event.depositId, revision)
    const figures = `event ${event.id} (${event.eventType}) of deposit ${event.depositId} at revision ${revision}`
    if (row === undefined && history.partial) continue
    if (row === undefined) {
      violations.push(`${figures}: the deposit was never stored at that revision`)
      continue
    }
    const decoded = decodeRecord(event.payload)
    if (Either.isLeft(decoded)) {
      violations.push(`${figures}: payload is not a DepositRecord: ${event.payload}`)
      continue
    }
    const record = decoded.right
    const wallet = wallets.get(row.walletId)
    const log = chainLogs.get(logKey(row.network, row.txid, row.logIndex))
    const onChain = log !== undefined && log.blockHash === row.blockHash ? log : undefined
    const expected: Array<readonly [string, unknown, unknown]> = [
      ["id", record.id, row.id],
      ["event_id", record.event_id, event.id],
      ["event_id (the revision's)", record.event_id, row.eventId],
      ["event_type", record.event_type, eventTypeOf[row.status]],
      ["event_type (the event's)", record.event_type, event.eventType],
      ["status", record.status, row.status],
      ["wallet_id", record.wallet_id, row.walletId],
      ["custom_id", record.custom_id, row.customId],
      ["network", record.network, event.network],
      ["network (the deposit's)", record.network, row.network],
      ["address", record.address, row.address],
      ["source", record.source, row.source],
      ["contract", record.contract, row.contract],
      ["amount", record.amount, row.amount.toString()],
      ["txid", record.txid, row.txid],
      ["log_index", record.log_index, row.logIndex],
      ["block_number", record.block_number, row.blockNumber.toString()],
      ["block_hash", record.block_hash, row.blockHash],
      ["block_time", new Date(record.block_time).getTime(), row.blockTime.getTime()],
      ["created_at", new Date(record.created_at).getTime(), row.createdAt.getTime()],
      ["revision", record.revision, revision],
      ["confirmation_type", record.confirmation_type, row.confirmationType],
      ["confirmations", record.confirmations, row.confirmations],
      ...(wallet === undefined ? [] : [
        ["address (the wallet's)", record.address, wallet.address] as const,
        ["tenant (the wallet's)", wallet.tenantId, event.tenantId] as const
      ]),
      ...(onChain === undefined ? [] : [
        ["amount (the chain's)", record.amount, onChain.amount.toString()] as const,
        ["source (the chain's)", record.source, onChain.from] as const,
        ["address (the chain's)", record.address, onChain.to] as const,
        ["contract (the chain's)", record.contract, onChain.contract] as const,
        ["block_number (the chain's)", record.block_number, onChain.blockNumber.toString()] as const,
        ["block_time (the chain's)", new Date(record.block_time).getTime(), onChain.blockTime] as const
      ])
    ]
    for (const [member, got, wanted] of expected) {
      if (got !== wanted) violations.push(`${figures}: ${member} is ${String(got)}, not ${String(wanted)}`)
    }
  }
  return violations
}
