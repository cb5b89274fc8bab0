import { describe, expect, it } from "@effect/vitest"
import { Memory, Notifications, type Sweeps } from "@collector/core"
import { storedTransaction } from "@collector/core/testing"
import { ChangeFeed } from "../ChangeFeed.js"
import { DepositHistory } from "../DepositHistory.js"
import type { ReceivedWebhook } from "../Receiver.js"
import { TaskHistory } from "../TaskHistory.js"
import { collection, depositEventRow, depositRow, emptySnapshot, settingsRow, taskRow, transfer, walletRow } from "../testing/Rows.js"
import { collectionReceived } from "./CollectionReceived.js"
import { dashboardDisagreements, recordedFigures } from "./DashboardAgrees.js"
import { depositEventsMatchRevisions, logKey } from "./DepositEventsMatchRevisions.js"
import { eventsDelivered } from "./EventsDelivered.js"
import { noOverdraft } from "./NoOverdraft.js"
import { noTaskSignedTwice } from "./NoTaskSignedTwice.js"
import { oneRentalPerTask } from "./OneRentalPerTask.js"
import { receivedMatchesStored } from "./ReceivedMatchesStored.js"
import { revisionsIncrease } from "./RevisionsIncrease.js"
import { sweepEventsMatchTasks } from "./SweepEventsMatchTasks.js"
import { type ChainFacts, sweepsOnChain } from "./SweepsOnChain.js"

// Each invariant on hand-built records: quiet on a consistent state, and reporting, with its
// figures, the one defect put into it.

const wallet = walletRow("1", "TWallet1")
const other = walletRow("2", "TWallet2")

const chain = (transfers: ChainFacts["transfers"], failed: ReadonlyArray<string> = []): ChainFacts => {
  const inclusions = new Map<string, Array<{ blockNumber: bigint; succeeded: boolean }>>()
  for (const t of transfers) inclusions.set(t.txid, [...(inclusions.get(t.txid) ?? []), { blockNumber: t.blockNumber, succeeded: true }])
  for (const txid of failed) inclusions.set(txid, [...(inclusions.get(txid) ?? []), { blockNumber: 200n, succeeded: false }])
  return { network: "nile", transfers, inclusions }
}

const depositWrites = (...rows: ReadonlyArray<Memory.MemoryTables.DepositRow | null>) => {
  const feed = new ChangeFeed()
  const history = new DepositHistory(feed)
  for (const row of rows) feed.publish({ table: Memory.MemoryTables.deposits.name, key: row?.id ?? "1", row: row ?? undefined })
  return history
}

const taskWrites = (...rows: ReadonlyArray<Memory.MemoryTables.SweepTaskRow>) => {
  const feed = new ChangeFeed()
  const history = new TaskHistory(feed)
  for (const row of rows) feed.publish({ table: Memory.MemoryTables.sweepTasks.name, key: row.id, row })
  return history
}

const terminalEvent = (task: Memory.MemoryTables.SweepTaskRow): Memory.MemoryTables.EventRow => {
  const event = Notifications.sweepEvent({ ...task, status: task.status as Sweeps.TerminalSweepStatus })
  return { ...depositEventRow(depositRow("9", 1)), id: event.id, eventType: event.eventType, depositId: null, revision: null, payload: event.payload }
}

const received = (event: Memory.MemoryTables.EventRow, over: Partial<ReceivedWebhook> = {}): ReceivedWebhook => ({
  appId: "1000001",
  url: "https://hooks.simulated.test/hooks/tenant-1/nile/v1",
  eventId: event.id,
  eventType: event.eventType,
  payload: event.payload,
  at: 0,
  answer: "ack",
  ...over
})

describe("revisionsIncrease", () => {
  it("accepts revisions 1, 2, 3 and reports a revision written again, a first revision above 1, a deletion", () => {
    expect(revisionsIncrease(depositWrites(depositRow("1", 1), depositRow("1", 2), depositRow("1", 3)))).toEqual([])
    expect(revisionsIncrease(depositWrites(depositRow("1", 1), depositRow("1", 2), depositRow("1", 2)))).toEqual([
      "deposit 1 was written at revisions [1,2,2]: revision 2 after 2 does not increase"
    ])
    expect(revisionsIncrease(depositWrites(depositRow("1", 2)))).toEqual(["deposit 1 was written at revisions [2]: its first revision is not 1"])
    expect(revisionsIncrease(depositWrites(depositRow("1", 1), null))).toEqual(["deposit 1 was written at revisions [1,deleted]: deleted"])
  })
})

describe("depositEventsMatchRevisions", () => {
  const first = depositRow("1", 1)
  const reverted = depositRow("1", 2, { status: "reverted", blockHash: null })
  const history = depositWrites(first, reverted)
  // The log of deposit 1 on the chain: 5 USDT from TStranger to TWallet1 in block 100 (b100).
  const chainLogs = new Map([[logKey("nile", "tx-1", 0), transfer("tx-1", "TStranger", "TWallet1", 5_000_000n)]])
  const snapshotWith = (events: ReadonlyArray<Memory.MemoryTables.EventRow>) => ({ ...emptySnapshot, wallets: [wallet], deposits: [reverted], events })

  it("accepts each revision's event carrying that revision's record, member by member as the chain and the store say", () => {
    expect(depositEventsMatchRevisions(snapshotWith([depositEventRow(first), depositEventRow(reverted)]), history, chainLogs)).toEqual([])
  })

  it("reports an event carrying another revision's record, and one of a revision never stored", () => {
    const stale = { ...depositEventRow(reverted), payload: depositEventRow(first).payload }
    const unknown = depositEventRow(depositRow("1", 3))
    const violations = depositEventsMatchRevisions({ ...emptySnapshot, events: [depositEventRow(first), stale, unknown] }, history, chainLogs)
    expect(violations).toEqual([
      "event 102 (deposit.reverted) of deposit 1 at revision 2: event_id is 101, not 102",
      "event 102 (deposit.reverted) of deposit 1 at revision 2: event_id (the revision's) is 101, not 102",
      "event 102 (deposit.reverted) of deposit 1 at revision 2: event_type is deposit.confirmed, not deposit.reverted",
      "event 102 (deposit.reverted) of deposit 1 at revision 2: event_type (the event's) is deposit.confirmed, not deposit.reverted",
      "event 102 (deposit.reverted) of deposit 1 at revision 2: status is confirmed, not reverted",
      "event 102 (deposit.reverted) of deposit 1 at revision 2: block_hash is b100, not null",
      "event 102 (deposit.reverted) of deposit 1 at revision 2: revision is 1, not 2",
      "event 103 (deposit.confirmed) of deposit 1 at revision 3: the deposit was never stored at that revision"
    ])
  })

  it("reports a record whose sender and recipient are swapped, row and payload alike, against the chain's log", () => {
    // As a record function that swapped them would write it, into the stored revision too.
    const swapped = depositRow("1", 1, { address: "TStranger", source: "TWallet1" })
    const violations = depositEventsMatchRevisions(snapshotWith([depositEventRow(swapped)]), depositWrites(swapped), chainLogs)
    expect(violations).toEqual([
      "event 101 (deposit.confirmed) of deposit 1 at revision 1: address (the wallet's) is TStranger, not TWallet1",
      "event 101 (deposit.confirmed) of deposit 1 at revision 1: source (the chain's) is TWallet1, not TStranger",
      "event 101 (deposit.confirmed) of deposit 1 at revision 1: address (the chain's) is TStranger, not TWallet1"
    ])
  })

  it("reports a payload the published schema refuses", () => {
    const broken = { ...depositEventRow(first), payload: depositEventRow(first).payload.replace('"amount":"5000000"', '"amount":5000000') }
    expect(depositEventsMatchRevisions(snapshotWith([broken]), history, chainLogs)).toEqual([
      `event 101 (deposit.confirmed) of deposit 1 at revision 1: payload is not a DepositRecord: ${broken.payload}`
    ])
  })
})

describe("eventsDelivered", () => {
  const event = depositEventRow(depositRow("1", 1))
  const round = (over: Partial<Memory.MemoryTables.DeliveryRoundRow>): Memory.MemoryTables.DeliveryRoundRow => ({
    id: "1",
    eventId: event.id,
    round: 1,
    url: "https://hooks.simulated.test/hooks",
    startedAt: new Date(0),
    deadlineAt: new Date(0),
    endedAt: new Date(0),
    outcome: "delivered",
    reason: "",
    ...over
  })

  it("accepts an acknowledged delivered event and a failed one with its reason", () => {
    const failed = { ...event, id: "2", status: "failed" as const, deliveredAt: null, lastError: "round deadline passed" }
    const snapshot = { ...emptySnapshot, events: [event, failed], deliveryRounds: [round({}), round({ eventId: "2", outcome: "failed", reason: "round deadline passed" })] }
    expect(eventsDelivered(snapshot, [received(event)])).toEqual([])
  })

  it("reports a delivery the receiver never acknowledged, a failure without reason, an event still pending", () => {
    const failed = { ...event, id: "2", status: "failed" as const, deliveredAt: null, lastError: "" }
    const pending = { ...event, id: "3", status: "pending" as const, deliveredAt: null }
    const snapshot = { ...emptySnapshot, events: [event, failed, pending], deliveryRounds: [round({})] }
    expect(eventsDelivered(snapshot, [received(event, { answer: "serverError" })])).toEqual([
      "event 101 (deposit.confirmed) delivered after 1 attempts in round 1, round delivered: delivered but the receiver never acknowledged it",
      "event 2 (deposit.confirmed) failed after 1 attempts in round 1: failed with no reason",
      "event 3 (deposit.confirmed) pending after 1 attempts in round 1: neither delivered nor failed"
    ])
  })
})

describe("receivedMatchesStored", () => {
  const event = depositEventRow(depositRow("1", 1))

  it("accepts what was sent and reports another payload, an envelope that did not open, an unknown event", () => {
    const snapshot = { ...emptySnapshot, events: [event] }
    expect(receivedMatchesStored(snapshot, [received(event)])).toEqual([])
    const violations = receivedMatchesStored(snapshot, [
      received(event, { payload: "{}" }),
      received(event, { payload: null }),
      received(event, { eventId: "77" })
    ])
    expect(violations).toEqual([
      `request for event 101 (deposit.confirmed) to app 1000001 at 0: decrypted {}, stored ${event.payload}`,
      "request for event 101 (deposit.confirmed) to app 1000001 at 0: the envelope did not open with the app's webhook key",
      "request for event 77 (deposit.confirmed) to app 1000001 at 0: no such event is stored"
    ])
  })
})

describe("sweepEventsMatchTasks", () => {
  const task = taskRow("5", wallet, 7n, "aa")

  it("accepts a task that ended with its one event carrying its outcome", () => {
    expect(sweepEventsMatchTasks({ ...emptySnapshot, sweepTasks: [task], events: [terminalEvent(task)] })).toEqual([])
  })

  it("reports a task that ended without its event, and an event whose payload is not the outcome", () => {
    expect(sweepEventsMatchTasks({ ...emptySnapshot, sweepTasks: [task] })).toEqual(["task 5 ended succeeded with 0 events, not 1"])
    const stale = terminalEvent({ ...task, amount: 6n })
    expect(sweepEventsMatchTasks({ ...emptySnapshot, sweepTasks: [task], events: [stale] })[0]).toMatch(
      /^event 5 \(sweep.succeeded\): amount is 6, not the task's 7$/
    )
  })
})

describe("noTaskSignedTwice", () => {
  const pending = taskRow("5", wallet, 7n, null, { status: "pending" })
  const signed = { ...pending, status: "signed" as const, transaction: storedTransaction("aa") }

  it("accepts a task keeping its one transaction to the end", () => {
    expect(noTaskSignedTwice(taskWrites(pending, signed, { ...signed, status: "broadcast" }, { ...signed, status: "succeeded" }))).toEqual([])
  })

  it("reports a task signed again, a transaction dropped, a transaction held by two tasks", () => {
    expect(noTaskSignedTwice(taskWrites(pending, signed, { ...signed, transaction: storedTransaction("bb") }))).toEqual([
      "task 5 held transactions [none, aa, bb]: signed 2 times"
    ])
    expect(noTaskSignedTwice(taskWrites(pending, signed, pending))).toEqual(["task 5 held transactions [none, aa, none]: its signed transaction was dropped"])
    expect(noTaskSignedTwice(taskWrites(signed, { ...signed, id: "6" as typeof signed.id }))).toEqual(["transaction aa is held by tasks 5, 6"])
  })
})

describe("sweepsOnChain", () => {
  const task = taskRow("5", wallet, 7n, "aa")
  const snapshot = { ...emptySnapshot, wallets: [wallet], sweepTasks: [task] }

  it("accepts a succeeded task whose transaction moved its amount once", () => {
    expect(sweepsOnChain(snapshot, chain([transfer("aa", wallet.address, collection, 7n)]))).toEqual([])
  })

  it("reports a transaction not on the chain, one that moved another amount, one that failed", () => {
    expect(sweepsOnChain(snapshot, chain([]))).toEqual([
      "nile: task 5 succeeded (7 from TWallet1 to TCollection): transaction aa is on the canonical chain 0 times, not once succeeded []"
    ])
    expect(sweepsOnChain(snapshot, chain([transfer("aa", wallet.address, collection, 6n)]))).toEqual([
      "nile: task 5 succeeded (7 from TWallet1 to TCollection): transaction aa moved [6 from TWallet1 to TCollection]"
    ])
    expect(sweepsOnChain(snapshot, chain([], ["aa"]))).toEqual([
      "nile: task 5 succeeded (7 from TWallet1 to TCollection): transaction aa is on the canonical chain 1 times, not once succeeded [block 200 failed]"
    ])
  })
})

describe("noOverdraft", () => {
  const snapshot = { ...emptySnapshot, wallets: [wallet, other] }

  it("accepts a wallet sending what it received, and reports one sending more than it held", () => {
    const received = [transfer("m1", "T0", wallet.address, 10n, 100n), transfer("m2", "T0", other.address, 3n, 100n)]
    expect(noOverdraft(snapshot, chain([...received, transfer("s1", wallet.address, collection, 10n, 101n)]))).toEqual([])
    expect(noOverdraft(snapshot, chain([...received, transfer("s1", other.address, collection, 4n, 101n)]))).toEqual([
      "nile: wallet TWallet2 sent 4 holding 3 (s1:0 in block 101)"
    ])
  })
})

describe("collectionReceived", () => {
  const swept = taskRow("5", wallet, 7n, "aa")
  const failed = taskRow("6", other, 3n, "bb", { status: "failed", reason: "expired" })
  const snapshot = { ...emptySnapshot, wallets: [wallet, other], tenantSettings: [settingsRow()], sweepTasks: [swept, failed] }

  it("accepts the collection address receiving the succeeded sweeps, whatever strangers send it", () => {
    expect(collectionReceived(snapshot, chain([transfer("aa", wallet.address, collection, 7n), transfer("x", "TStranger", collection, 100n)]))).toEqual([])
  })

  it("reports a sweep told failed whose transfer landed", () => {
    expect(collectionReceived(snapshot, chain([transfer("aa", wallet.address, collection, 7n), transfer("bb", other.address, collection, 3n)]))).toEqual([
      "nile: collection address TCollection received 10 in 2 transfers from wallets, succeeded sweeps to it sum to 7 in 1 tasks"
    ])
  })
})

describe("oneRentalPerTask", () => {
  const task = taskRow("5", wallet, 7n, "aa")
  const rented = {
    ...task,
    rental: {
      orderId: "sweep-nile-5",
      provider: "sim",
      providerOrderId: null,
      quantity: 65_000n,
      estimatedCost: 0n,
      paidCost: 0n,
      activationCost: 0n,
      state: "delivered" as const,
      expiresAt: null
    }
  }

  const order = (orderNo: string, receiver = wallet.address) => ({ orderNo, receiver })

  it("accepts the task's one order, and reports an order no task stored, a number booked twice, an order for another wallet", () => {
    expect(oneRentalPerTask({ ...emptySnapshot, sweepTasks: [rented] }, "nile", [order("sweep-nile-5")])).toEqual([])
    expect(oneRentalPerTask({ ...emptySnapshot, sweepTasks: [rented] }, "nile", [order("sweep-nile-5"), order("sweep-nile-5-again")])).toEqual([
      "nile: the provider took order sweep-nile-5-again, which no sweep task stored"
    ])
    expect(oneRentalPerTask({ ...emptySnapshot, sweepTasks: [task] }, "nile", [order("sweep-nile-5")])).toEqual([
      "nile: the provider took order sweep-nile-5, which no sweep task stored"
    ])
    expect(oneRentalPerTask({ ...emptySnapshot, sweepTasks: [rented] }, "nile", [order("sweep-nile-5"), order("sweep-nile-5")])).toEqual([
      "nile: order sweep-nile-5 of task 5 is in the provider's book 2 times"
    ])
    expect(oneRentalPerTask({ ...emptySnapshot, sweepTasks: [rented] }, "nile", [order("sweep-nile-5"), { ...order("sweep-nile-5"), provider: "sim-b" }])).toEqual([
      "nile: order sweep-nile-5 of task 5 is in 2 providers' books (sim, sim-b), 2 times in all"
    ])
    expect(oneRentalPerTask({ ...emptySnapshot, sweepTasks: [rented] }, "nile", [order("sweep-nile-5", "TWallet2")])).toEqual([
      "nile: order sweep-nile-5 of task 5 delegates to TWallet2, not its wallet TWallet1"
    ])
  })
})

describe("dashboardDisagreements", () => {
  const app = { tenantId: wallet.tenantId, network: "nile" } as Memory.MemoryTables.AppRow
  const snapshot = {
    ...emptySnapshot,
    wallets: [{ ...wallet, balanceUsdt: 3n, balanceBlock: 120n, collectedUsdt: 7n }, other],
    deposits: [depositRow("1", 1, { amount: 10n }), depositRow("2", 2, { amount: 4n, status: "reverted" })],
    sweepTasks: [taskRow("5", wallet, 7n, "aa"), taskRow("6", other, 0n, null, { status: "pending" })]
  }

  it("reads the figures off the records and reports each the dashboard shows otherwise", () => {
    const recorded = recordedFigures(snapshot, app)
    expect(recorded).toEqual({
      walletCount: 2,
      unsyncedWalletCount: 1,
      balanceUsdt: 3n,
      balanceTrx: 0n,
      collectedUsdt: 7n,
      depositUsdt: 10n,
      pendingTasks: 1
    })
    expect(dashboardDisagreements(snapshot, app, recorded)).toEqual([])
    expect(dashboardDisagreements(snapshot, app, { ...recorded, depositUsdt: 14n, pendingTasks: 0 })).toEqual([
      "dashboard of tenant 1 on nile: depositUsdt 14, the records say 10",
      "dashboard of tenant 1 on nile: pendingTasks 0, the records say 1"
    ])
  })
})
