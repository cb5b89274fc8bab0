import { Effect, Metric } from "effect"
import { bigintCounterFamily, counterFamily, gaugeFamily } from "../metrics/MetricFamily.js"
import type { Network } from "../kernel/Network.js"
import { type SweepStatus, type SweepTask, unfinishedStatuses } from "./SweepTask.js"

/**
 * Unfinished sweep tasks of a network by status (`pending`, `ready`, `signed`, `broadcast`,
 * `unknown`), counted from the store by the sweeper when it reports (about every 10 s). Finished
 * tasks are not a level but a count: `collector_sweeps_finished_total`.
 */
export const sweepsByStatus = gaugeFamily(
  "collector_sweeps",
  "Unfinished sweep tasks by status, as the sweeper last counted them",
  ["network", "status"]
)

/**
 * Wallets found frozen by the USDT contract's issuer (Tether's `isBlackListed`), by where the
 * service looked: `estimate` (an estimate's item) or `preparation` (a task, failed with nothing
 * rented or signed).
 */
export const frozenWallets = counterFamily(
  "collector_sweep_frozen_wallets_total",
  "Wallets found frozen by the USDT issuer (isBlackListed) at an estimate or a sweep's preparation",
  ["network", "stage"],
  { stage: ["estimate", "preparation"] }
)

/** What a task or an estimate item says of a frozen wallet. */
export const frozenReason = "the wallet's USDT is frozen by the token's issuer (isBlackListed): nothing is rented or signed for it"

/** Tasks this process finished, by terminal status (`succeeded`, `failed`, `cancelled`). */
export const sweepsFinished = counterFamily(
  "collector_sweeps_finished_total",
  "Sweep tasks finished, by terminal status",
  ["network", "status"],
  { status: ["succeeded", "failed", "cancelled"] }
)

/**
 * SUN a finished task cost, counted once when it is finished: `network` (TRX the chain burned for
 * the transaction's energy and bandwidth), `energy_rental` (paid to the energy provider) and
 * `activation` (the provider's charge for activating the wallet).
 */
export const sweepFees = bigintCounterFamily(
  "collector_sweep_fees_sun_total",
  "SUN paid for finished sweeps, by kind (network, energy_rental, activation)",
  ["network", "kind"],
  { kind: ["network", "energy_rental", "activation"] }
)

/** Counts a task once its terminal state is written: its status and what it cost, by kind. */
export const countFinished = (task: SweepTask): Effect.Effect<void> =>
  Effect.suspend(() => {
    const fees: ReadonlyArray<readonly [string, bigint]> = [
      ["network", task.actualFee],
      ["energy_rental", task.rental?.paidCost ?? 0n],
      ["activation", task.rental?.activationCost ?? 0n]
    ]
    return Effect.all([
      Metric.increment(sweepsFinished(task.network, task.status)),
      ...fees.filter(([, sun]) => sun > 0n).map(([kind, sun]) => Metric.incrementBy(sweepFees(task.network, kind), sun))
    ], { discard: true })
  })

/** Sets the status gauge of every unfinished status from the store's counts (0 where none). */
export const sampleUnfinished = (network: Network, counts: Readonly<Partial<Record<SweepStatus, number>>>): Effect.Effect<void> =>
  Effect.forEach(unfinishedStatuses, (status) => Metric.set(sweepsByStatus(network, status), counts[status] ?? 0), { discard: true })

/**
 * USDT Transfers out of one of our wallets that no sweep task accounts for (`Reconciliation.ts`),
 * each counted once, when it is reported: a key used outside the service, or a sweep whose record
 * is gone and whose task could not be found.
 */
export const unaccountedOutflows = counterFamily(
  "collector_unaccounted_outflows_total",
  "USDT transfers out of a tenant wallet that no sweep task accounts for, counted once when reported",
  ["network"]
)
