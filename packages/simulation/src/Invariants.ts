import { Effect } from "effect"
import { canonicalDelegations } from "./CanonicalDelegations.js"
import { canonicalInclusions } from "./CanonicalInclusions.js"
import type { ChainAtCommit } from "./ChainAtCommit.js"
import { canonicalTransfers } from "./CanonicalTransfers.js"
import { DepositHistory } from "./DepositHistory.js"
import { bookingTime } from "./invariants/BookingTime.js"
import { collectionReceived } from "./invariants/CollectionReceived.js"
import { deliveryIsolation } from "./invariants/DeliveryIsolation.js"
import { dashboardAgrees } from "./invariants/DashboardAgrees.js"
import { depositEventsMatchRevisions, logKey } from "./invariants/DepositEventsMatchRevisions.js"
import { depositsMatchChain } from "./invariants/DepositsMatchChain.js"
import { eventsDelivered } from "./invariants/EventsDelivered.js"
import { noDelegationLeaked } from "./invariants/NoDelegationLeaked.js"
import { noOverdraft } from "./invariants/NoOverdraft.js"
import { noTaskSignedTwice } from "./invariants/NoTaskSignedTwice.js"
import { oneRentalPerTask } from "./invariants/OneRentalPerTask.js"
import { receivedMatchesStored } from "./invariants/ReceivedMatchesStored.js"
import { revisionsIncrease } from "./invariants/RevisionsIncrease.js"
import { settledWhenSolid } from "./invariants/SettledWhenSolid.js"
import { sweepDestination } from "./invariants/SweepDestination.js"
import { sweepEventsMatchTasks } from "./invariants/SweepEventsMatchTasks.js"
import { replaysIdentical } from "./invariants/ReplaysIdentical.js"
import { writesDoneOnce } from "./invariants/WritesDoneOnce.js"
import { type ChainFacts, sweepsOnChain } from "./invariants/SweepsOnChain.js"
import { SnapshotReader } from "./Snapshot.js"
import { TaskHistory } from "./TaskHistory.js"
import type { Trace } from "./Trace.js"
import type { WorldParts } from "./WorldParts.js"

/** What the store went through, watched on the trace's change feed from the start of the run. */
export interface StoreHistory {
  readonly deposits: DepositHistory
  readonly tasks: TaskHistory
  /**
   * Whether every committed change was seen (the memory store reports them; PostgreSQL does not,
   * so there the invariants that need a row's past check what the final rows show).
   */
  readonly complete: boolean
  /** The chain at each booking and each settlement; set once the world's chains exist (memory only). */
  chainAtCommit?: ChainAtCommit
}

/** Each network's canonical chain, read from its simulator. */
const chainFacts = (world: WorldParts) =>
  Effect.forEach(world.networks, ({ network, sim }) =>
    Effect.map(sim.chain.state, (state): ChainFacts => ({ network, transfers: canonicalTransfers(state), inclusions: canonicalInclusions(state) })))

/**
 * Every invariant, checked once the service has settled, each violation a line with its figures.
 * `history` is what `watchStore` saw of the run.
 */
export const checkInvariants = (world: WorldParts, history: StoreHistory) =>
  Effect.gen(function*() {
    const snapshot = yield* Effect.flatMap(SnapshotReader, (reader) => reader.read)
    const chains = yield* chainFacts(world)
    const received = world.receiver.received
    const perChain = (check: (chain: ChainFacts) => ReadonlyArray<string>) => chains.flatMap(check)
    const chainLogs = new Map(chains.flatMap((c) => c.transfers.map((t) => [logKey(c.network, t.txid, t.logIndex), t] as const)))
    const commits = history.complete ? history.chainAtCommit : undefined
    return [
      ...(yield* depositsMatchChain(world, snapshot)),
      ...(history.complete ? revisionsIncrease(history.deposits) : []),
      ...eventsDelivered(snapshot, received),
      ...depositEventsMatchRevisions(snapshot, history.complete ? history.deposits : DepositHistory.ofRows(snapshot.deposits), chainLogs),
      ...(commits === undefined ? [] : bookingTime(commits.bookings, world.ledger)),
      ...(commits === undefined ? [] : settledWhenSolid(commits.settlements)),
      ...deliveryIsolation(snapshot, received, world.ledger),
      ...perChain((chain) => sweepDestination(snapshot, chain, world.ledger)),
      ...sweepEventsMatchTasks(snapshot),
      ...receivedMatchesStored(snapshot, received),
      ...(history.complete ? noTaskSignedTwice(history.tasks) : []),
      ...perChain((chain) => sweepsOnChain(snapshot, chain)),
      ...perChain((chain) => noOverdraft(snapshot, chain)),
      ...perChain((chain) => collectionReceived(snapshot, chain)),
      ...(yield* Effect.forEach(world.networks, ({ network, providers }) =>
        Effect.map(
          Effect.forEach(providers, ({ book, name }) => Effect.map(book.orders, (orders) => orders.map((o) => ({ orderNo: o.order.orderNo, receiver: o.order.receiver, provider: name })))),
          (books) => oneRentalPerTask(snapshot, network, books.flat())
        ))).flat(),
      ...(yield* Effect.forEach(world.networks, ({ network, ownStake, sim }) =>
        ownStake === undefined
          ? Effect.succeed([])
          : Effect.map(sim.chain.state, (state) => noDelegationLeaked(snapshot, network, ownStake.address, canonicalDelegations(state, ownStake.address))))).flat(),
      ...(yield* dashboardAgrees(world, snapshot)),
      ...(yield* replaysIdentical(world)),
      ...writesDoneOnce(snapshot, world.ledger.writes)
    ]
  })

/** Starts watching the store's committed changes; call before the run makes any. */
export const watchStore = (trace: Trace, complete: boolean): StoreHistory => ({
  deposits: new DepositHistory(trace.feed),
  tasks: new TaskHistory(trace.feed),
  complete
})
