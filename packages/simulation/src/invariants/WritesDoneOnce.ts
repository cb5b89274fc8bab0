import { Ok, SweepCreateResult, WalletIdentity } from "@collector/api"
import { Either, Schema } from "effect"
import type { Snapshot } from "../Snapshot.js"
import type { SentWrite } from "../workload/WorkloadLedger.js"

const decodeWallet = Schema.decodeUnknownEither(Schema.parseJson(Ok(WalletIdentity)))
const decodeSweeps = Schema.decodeUnknownEither(Schema.parseJson(Ok(SweepCreateResult)))

/** The body of a 200 answer as recorded (`200 <body>`); undefined for any other status. */
const okBody = (answer: string): string | undefined => (answer.startsWith("200 ") ? answer.slice(4) : undefined)

const scopeKey = (tenantId: string, network: string) => `${tenantId}/${network}`

/**
 * Each write the workload sent through the API was done once, whatever was sent again under its
 * request_id (oracle: the workload's ledger of first answers, decoded with the published
 * `WalletIdentity` and `SweepCreateResult` schemas, and the final rows). The wallets of a scope
 * are exactly those the first answers to its creates named, each with the custom_id asked for and
 * the address answered; the manual sweep tasks are exactly those the first answers to the
 * sweep creates named, each for the wallet it was answered for. A wallet or task no first
 * answer named was made by a replay, a duplicate or a conflicting request.
 */
export const writesDoneOnce = (snapshot: Snapshot, writes: ReadonlyArray<SentWrite>): ReadonlyArray<string> => {
  const violations: Array<string> = []
  const answeredWallets = new Map<string, { readonly write: SentWrite; readonly address: string }>()
  const answeredTasks = new Map<string, { readonly write: SentWrite; readonly walletId: string }>()
  const scopes = new Set(writes.map((w) => scopeKey(w.scope.tenantId, w.scope.network)))
  for (const write of writes) {
    const body = okBody(write.answer)
    if (body === undefined) continue
    if (write.operation === "wallets.create") {
      const decoded = decodeWallet(body)
      if (Either.isLeft(decoded)) violations.push(`wallets.create ${write.requestId} answered a body the WalletIdentity schema refuses: ${body.slice(0, 200)}`)
      else answeredWallets.set(decoded.right.id, { write, address: decoded.right.address })
    } else if (write.operation === "sweeps.create") {
      const decoded = decodeSweeps(body)
      if (Either.isLeft(decoded)) violations.push(`sweeps.create ${write.requestId} answered a body the SweepCreateResult schema refuses: ${body.slice(0, 200)}`)
      else for (const item of decoded.right.items) if (item.task !== null) answeredTasks.set(item.task.id, { write, walletId: item.wallet_id })
    }
  }
  for (const [id, { address, write }] of answeredWallets) {
    const rows = snapshot.wallets.filter((w) => w.id === id)
    const row = rows[0]
    if (row === undefined) violations.push(`wallets.create ${write.requestId} answered wallet ${id}, which the store does not hold`)
    else if (row.customId !== write.body.custom_id || row.address !== address || row.tenantId !== write.scope.tenantId || row.network !== write.scope.network) {
      violations.push(`wallet ${id} is ${row.customId} ${row.address} of ${row.tenantId}/${row.network}, answered ${String(write.body.custom_id)} ${address} of ${write.scope.tenantId}/${write.scope.network}`)
    }
  }
  for (const row of snapshot.wallets) {
    if (scopes.has(scopeKey(row.tenantId, row.network)) && !answeredWallets.has(row.id)) {
      violations.push(`wallet ${row.id} (${row.customId}) of ${row.tenantId}/${row.network} was created by no first answer to a create: done twice or by a conflicting request`)
    }
  }
  for (const [id, { walletId, write }] of answeredTasks) {
    const row = snapshot.sweepTasks.find((t) => t.id === id)
    if (row === undefined) violations.push(`sweeps.create ${write.requestId} answered task ${id}, which the store does not hold`)
    else if (row.walletId !== walletId || row.origin !== "manual") violations.push(`task ${id} is a ${row.origin} task of wallet ${row.walletId}, answered a manual task of wallet ${walletId}`)
  }
  for (const row of snapshot.sweepTasks) {
    if (row.origin === "manual" && !answeredTasks.has(row.id)) {
      violations.push(`manual task ${row.id} of wallet ${row.walletId} was created by no first answer to a sweep create: done twice or by a conflicting request`)
    }
  }
  return violations
}
