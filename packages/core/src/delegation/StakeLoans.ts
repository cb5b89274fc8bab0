import { Duration, Effect, Option } from "effect"
import { Chain } from "../chain/Chain.js"
import type { ChainRejected, ChainUnavailable } from "../chain/ChainErrors.js"
import type { UnsignedTransaction } from "../chain/ChainModel.js"
import type { SweepTaskId } from "../sweeps/SweepTask.js"
import { Signer, type SigningFailed } from "../wallets/WalletKeys.js"
import { type DelegationExists, DelegationLedger, type DelegationMoved } from "./DelegationLedger.js"
import { transitionProblem } from "./DelegationTransitions.js"
import type { EnergyDelegation } from "./EnergyDelegation.js"
import type { ResourceAccount } from "./ResourceAccount.js"
import { stakeForEnergy } from "./StakeForEnergy.js"

/** How long the loan's transactions are valid, and how long past that a missing one is judged never to land. */
export interface StakeLoanSettings {
  readonly transactionValidity: Duration.Duration
  /** Beyond the expiration: the solidified node may show a transaction mined just before it a little later. */
  readonly landingGrace: Duration.Duration
}

export const defaultStakeLoanSettings: StakeLoanSettings = {
  transactionValidity: Duration.minutes(10),
  landingGrace: Duration.minutes(2)
}

/** What lending did: `Lent` once on chain; `Pending` to be looked at again; `Short` when the stake cannot cover it (the tenant's policy decides); `Refused` when the chain refused it (nothing lent). */
export type LendOutcome =
  | { readonly _tag: "Lent"; readonly delegation: EnergyDelegation }
  | { readonly _tag: "Pending"; readonly delegation: EnergyDelegation; readonly reason: string }
  | { readonly _tag: "Short"; readonly needed: bigint; readonly available: bigint; readonly reason: string }
  | { readonly _tag: "Refused"; readonly reason: string }

/** What reclaiming did: `Reclaimed` once the stake is back (or was never lent); `Pending` otherwise. */
export type ReclaimOutcome =
  | { readonly _tag: "Reclaimed"; readonly delegation: EnergyDelegation }
  | { readonly _tag: "Pending"; readonly delegation: EnergyDelegation; readonly reason: string }

/** DelegationMoved: another step moved the row first; the caller looks again later. */
type Failure = ChainUnavailable | ChainRejected | SigningFailed | DelegationMoved
type Needs = Chain | Signer | DelegationLedger

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")

const expired = (expiration: Date, now: Date, settings: StakeLoanSettings) =>
  now.getTime() > expiration.getTime() + Duration.toMillis(settings.landingGrace)

/**
 * Lending and taking back the operator's energy stake for one sweep task, safe against a crash
 * at any point. The ledger row is the task's one delegation: planned with the txid of the
 * signed transaction before that is broadcast, so whatever happened to the broadcast is found
 * by its txid. A transaction that is neither on chain nor can still land (expired, plus a grace)
 * is built anew under the same row; one that landed is never sent again.
 */
export const makeStakeLoans = (account: ResourceAccount, settings: StakeLoanSettings = defaultStakeLoanSettings) => {
  const move = (previous: EnergyDelegation, next: EnergyDelegation) =>
    Effect.gen(function*() {
      const problem = transitionProblem(previous, next)
      if (problem !== undefined) return yield* Effect.dieMessage(problem)
      return yield* Effect.flatMap(DelegationLedger, (ledger) => ledger.update(previous, next))
    })

  const signed = (transaction: UnsignedTransaction) =>
    Effect.flatMap(Signer, (signer) =>
      Effect.map(signer.sign({ address: account.address, key: account.key }, Buffer.from(transaction.txid, "hex")), (signature) => ({
        ...transaction,
        signatures: [hexOf(signature)]
      })))

  const loanOf = (d: Pick<EnergyDelegation, "owner" | "receiver" | "balance">) => ({ owner: d.owner, receiver: d.receiver, balance: d.balance })

  /** Builds and signs the loan, records its txid (planning the row or replacing `previous`'s), then broadcasts it. */
  const send = (
    request: { readonly taskId: SweepTaskId; readonly receiver: string; readonly energy: bigint; readonly balance: bigint },
    now: Date,
    previous: Option.Option<EnergyDelegation>
  ): Effect.Effect<LendOutcome, Failure, Needs> =>
    Effect.gen(function*() {
      const chain = yield* Chain
      const ledger = yield* DelegationLedger
      const loan = { owner: account.address, receiver: request.receiver, balance: request.balance }
      const transaction = yield* signed(yield* chain.buildEnergyLoan(loan, new Date(now.getTime() + Duration.toMillis(settings.transactionValidity))))
      const fields = { state: "planned" as const, delegateTxid: transaction.txid, delegateExpiration: transaction.expiration, updatedAt: now }
      const record: Effect.Effect<EnergyDelegation, DelegationExists | DelegationMoved, DelegationLedger> = Option.match(previous, {
        onNone: () =>
          ledger.plan({
            taskId: request.taskId,
            network: account.network,
            ...loan,
            energy: request.energy,
            reclaimTxid: null,
            reclaimExpiration: null,
            createdAt: now,
            ...fields
          }),
        onSome: (row) => move(row, { ...row, ...fields })
      })
      const recorded = yield* Effect.either(record)
      // Another worker recorded first: its row is the task's delegation, and this transaction is never sent.
      if (recorded._tag === "Left") {
        const current: Option.Option<EnergyDelegation> = recorded.left._tag === "DelegationExists" ? Option.some(recorded.left.existing) : recorded.left.current
        if (Option.isNone(current)) return yield* Effect.dieMessage(`the delegation of task ${request.taskId} vanished`)
        return { _tag: "Pending", delegation: current.value, reason: "the delegation was recorded by another step" }
      }
      const row = recorded.right
      const outcome = yield* Effect.either(chain.broadcast(transaction))
      if (outcome._tag === "Left") return { _tag: "Pending", delegation: row, reason: `delegation broadcast unanswered, verifying ${row.delegateTxid}: ${outcome.left.reason}` }
      if (outcome.right._tag === "Rejected") {
        yield* move(row, { ...row, state: "reclaimed", updatedAt: now })
        return { _tag: "Refused", reason: `the node refused the delegation: ${outcome.right.code} ${outcome.right.message}`.trim() }
      }
      const sent = yield* move(row, { ...row, state: "broadcast", updatedAt: now })
      return { _tag: "Pending", delegation: sent, reason: `delegation ${row.delegateTxid} broadcast, waiting for it on chain` }
    })

  /** Where a planned or broadcast delegation's transaction is: landed, failed, or still able to land. */
  const landing = (row: EnergyDelegation, now: Date) =>
    Effect.gen(function*() {
      const receipt = yield* Effect.flatMap(Chain, (chain) => chain.receipt(row.delegateTxid))
      if (Option.isSome(receipt)) return receipt.value.result === "SUCCESS" ? "landed" as const : "failed" as const
      return expired(row.delegateExpiration, now, settings) ? "lost" as const : "waiting" as const
    })

  /**
   * Lends the energy `request.energy` needs, or carries on with the task's delegation as the
   * ledger has it: a task is never delegated twice.
   */
  const lend = (
    request: { readonly taskId: SweepTaskId; readonly receiver: string; readonly energy: bigint },
    now: Date
  ): Effect.Effect<LendOutcome, Failure, Needs> =>
    Effect.gen(function*() {
      const chain = yield* Chain
      const existing = yield* Effect.flatMap(DelegationLedger, (ledger) => ledger.find(request.taskId))
      if (Option.isNone(existing)) {
        const totals = yield* chain.stakeTotals(account.address)
        const balance = stakeForEnergy(request.energy, totals)
        if (balance === undefined) return { _tag: "Refused", reason: "the network reports no energy stake weight" }
        const available = yield* chain.delegatableEnergyStake(account.address)
        if (available < balance) {
          return { _tag: "Short", needed: balance, available, reason: `the own stake can lend ${available} SUN, the transfer needs ${balance} SUN staked` }
        }
        return yield* send({ ...request, balance }, now, Option.none())
      }
      const row = existing.value
      switch (row.state) {
        case "confirmed":
          return { _tag: "Lent", delegation: row }
        case "reclaim_broadcast":
        case "reclaimed":
          return { _tag: "Refused", reason: `the task's delegation was already ${row.state === "reclaimed" ? "ended" : "being taken back"}; a task is delegated once` }
        case "planned":
        case "broadcast": {
          const where = yield* landing(row, now)
          if (where === "landed") return { _tag: "Lent", delegation: yield* move(row, { ...row, state: "confirmed", updatedAt: now }) }
          if (where === "failed") {
            const ended = yield* move(row, { ...row, state: "reclaimed", updatedAt: now })
            return { _tag: "Refused", reason: `delegation ${ended.delegateTxid} failed on chain` }
          }
          if (where === "waiting") return { _tag: "Pending", delegation: row, reason: `waiting for delegation ${row.delegateTxid} on chain` }
          // Lost: it can no longer land. The stake may have been lent to others meanwhile.
          const available = yield* chain.delegatableEnergyStake(account.address)
          if (available < row.balance) {
            const ended = yield* move(row, { ...row, state: "reclaimed", updatedAt: now })
            return { _tag: "Short", needed: ended.balance, available, reason: `the own stake can lend ${available} SUN, the transfer needs ${ended.balance} SUN staked` }
          }
          return yield* send({ taskId: row.taskId, receiver: row.receiver, energy: row.energy, balance: row.balance }, now, Option.some(row))
        }
      }
    })

  /** Builds, signs and records the reclaim (`previous` moves to reclaim_broadcast with its txid), then broadcasts it. */
  const sendReclaim = (row: EnergyDelegation, now: Date): Effect.Effect<ReclaimOutcome, Failure, Needs> =>
    Effect.gen(function*() {
      const chain = yield* Chain
      const built = yield* Effect.either(chain.buildEnergyReclaim(loanOf(row), new Date(now.getTime() + Duration.toMillis(settings.transactionValidity))))
      if (built._tag === "Left") {
        // The node refuses to take back more than is lent: what this row lent is back already.
        if (built.left._tag === "ChainRejected" && (yield* chain.lentEnergyStake(loanOf(row))) < row.balance) {
          return { _tag: "Reclaimed", delegation: yield* move(row, { ...row, state: "reclaimed", updatedAt: now }) }
        }
        return yield* Effect.fail(built.left)
      }
      const transaction = yield* signed(built.right)
      const recorded = yield* move(row, { ...row, state: "reclaim_broadcast", reclaimTxid: transaction.txid, reclaimExpiration: transaction.expiration, updatedAt: now })
      const outcome = yield* Effect.either(chain.broadcast(transaction))
      const why = outcome._tag === "Left" ? `unanswered: ${outcome.left.reason}` : outcome.right._tag === "Rejected" ? `refused: ${outcome.right.code} ${outcome.right.message}` : "broadcast"
      return { _tag: "Pending", delegation: recorded, reason: `reclaim ${transaction.txid} ${why}` }
    })

  /**
   * Takes the task's stake back once its sweep is settled, one step at a time until done; safe to
   * run again after a crash at any point. A delegation that never landed ends with nothing to take back.
   */
  const reclaim = (taskId: SweepTaskId, now: Date): Effect.Effect<Option.Option<ReclaimOutcome>, Failure, Needs> =>
    Effect.gen(function*() {
      const found = yield* Effect.flatMap(DelegationLedger, (ledger) => ledger.find(taskId))
      if (Option.isNone(found)) return Option.none()
      return Option.some(yield* reclaimRow(found.value, now))
    })

  const reclaimRow = (row: EnergyDelegation, now: Date): Effect.Effect<ReclaimOutcome, Failure, Needs> =>
    Effect.gen(function*() {
      const chain = yield* Chain
      switch (row.state) {
        case "reclaimed":
          return { _tag: "Reclaimed", delegation: row }
        case "planned":
        case "broadcast": {
          const where = yield* landing(row, now)
          if (where === "landed") return yield* sendReclaim(yield* move(row, { ...row, state: "confirmed", updatedAt: now }), now)
          if (where === "waiting") return { _tag: "Pending", delegation: row, reason: `waiting for delegation ${row.delegateTxid} before taking it back` }
          return { _tag: "Reclaimed", delegation: yield* move(row, { ...row, state: "reclaimed", updatedAt: now }) }
        }
        case "confirmed":
          return yield* sendReclaim(row, now)
        case "reclaim_broadcast": {
          const receipt = yield* chain.receipt(row.reclaimTxid!)
          if (Option.isSome(receipt) && receipt.value.result === "SUCCESS") {
            return { _tag: "Reclaimed", delegation: yield* move(row, { ...row, state: "reclaimed", updatedAt: now }) }
          }
          if (Option.isNone(receipt) && !expired(row.reclaimExpiration!, now, settings)) {
            return { _tag: "Pending", delegation: row, reason: `waiting for reclaim ${row.reclaimTxid} on chain` }
          }
          // Failed or lost: built again under the same row.
          return yield* sendReclaim(row, now)
        }
      }
    })

  return { owner: account.address, lend, reclaim, reclaimRow }
}
