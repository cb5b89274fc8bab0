import { describe, expect, it } from "@effect/vitest"
import type { Kernel, Memory, Settings } from "@collector/core"
import type { ReceivedWebhook } from "../Receiver.js"
import { collection, depositEventRow, depositRow, emptySnapshot, taskRow, tenantId, transfer, walletRow } from "../testing/Rows.js"
import type { LedgerScope } from "../workload/WorkloadLedger.js"
import { bookingTime } from "./BookingTime.js"
import { deliveryIsolation } from "./DeliveryIsolation.js"
import { settledWhenSolid } from "./SettledWhenSolid.js"
import { sweepDestination } from "./SweepDestination.js"
import type { ChainFacts } from "./SweepsOnChain.js"

// The invariants of issue 30 on hand-built rows: quiet on a consistent state, and reporting, with
// its figures, each defect put into it. Expected figures are written out from the inputs.

const otherTenant = "2" as Kernel.TenantId
const scopes: ReadonlyArray<LedgerScope> = [
  { tenantId, network: "nile", tenantName: "tenant-1", appId: "1000001", rule: "block_6" },
  { tenantId: otherTenant, network: "nile", tenantName: "tenant-2", appId: "1000002", rule: "solidified" }
]
const ledger = {
  scope: (t: Kernel.TenantId, n: string) => scopes.find((s) => s.tenantId === t && s.network === n),
  collectionAddressOf: (t: Kernel.TenantId) => (t === tenantId ? collection : t === otherTenant ? "TCollection2" : undefined),
  collectionAddresses: [
    { tenantId, network: "nile" as const, address: collection },
    { tenantId: otherTenant, network: "nile" as const, address: "TCollection2" }
  ]
}

describe("bookingTime", () => {
  const booked = (rule: Settings.ConfirmationRule, confirmations: number | null, head: bigint, solidified: bigint, over: Partial<Memory.MemoryTables.DepositRow> = {}) => ({
    row: depositRow("1", 1, { confirmationType: rule, confirmations, ...over }),
    head,
    solidified
  })

  it("accepts block_6 six blocks deep (block 100, head 105) and solidified at the solidified block", () => {
    expect(bookingTime([booked("block_6", 6, 105n, 86n)], ledger)).toEqual([])
    expect(bookingTime([booked("block_6", 6, 110n, 91n)], ledger)).toEqual([])
    expect(bookingTime([booked("solidified", null, 119n, 100n, { tenantId: otherTenant })], ledger)).toEqual([])
  })

  it("reports a booking one block short, a count the chain never reached, a rule not the tenant's, solidified too early", () => {
    expect(bookingTime([booked("block_6", 6, 104n, 85n)], ledger)).toEqual([
      "nile: deposit 1 revision 1 in block 100 booked at head 104, solidified 85: 5 blocks counted, block_6 needs 6",
      "nile: deposit 1 revision 1 in block 100 booked at head 104, solidified 85: confirmations 6, not between 6 and 5"
    ])
    expect(bookingTime([booked("block_6", 5, 105n, 86n)], ledger)).toEqual([
      "nile: deposit 1 revision 1 in block 100 booked at head 105, solidified 86: confirmations 5, not between 6 and 6"
    ])
    expect(bookingTime([booked("block_1", 6, 105n, 86n)], ledger)).toEqual([
      "nile: deposit 1 revision 1 in block 100 booked at head 105, solidified 86: confirmation_type block_1, the tenant's rule is block_6"
    ])
    expect(bookingTime([booked("solidified", 1, 118n, 99n, { tenantId: otherTenant })], ledger)).toEqual([
      "nile: deposit 1 revision 1 in block 100 booked at head 118, solidified 99: booked under solidified before its block was",
      "nile: deposit 1 revision 1 in block 100 booked at head 118, solidified 99: confirmations 1 under solidified, not null"
    ])
  })
})

describe("settledWhenSolid", () => {
  const wallet = walletRow("1", "TWallet1")
  const ended = (status: "succeeded" | "failed" | "cancelled", txBlock: bigint | null, solidified: bigint) => ({
    row: taskRow("5", wallet, 7n, "aa", { status }),
    txBlock,
    head: solidified + 19n,
    solidified
  })

  it("accepts a task ended with its block solidified, and one failed or cancelled on a transaction never mined", () => {
    expect(settledWhenSolid([ended("succeeded", 100n, 100n), ended("failed", 90n, 100n), ended("failed", null, 100n), ended("cancelled", null, 100n)])).toEqual([])
  })

  it("reports a task ended on a block above the solidified one, and one succeeded on a transaction no block held", () => {
    expect(settledWhenSolid([ended("succeeded", 101n, 100n), ended("failed", 105n, 100n), ended("succeeded", null, 100n)])).toEqual([
      "nile: task 5 succeeded with transaction aa: ended with its block 101 above the solidified 100",
      "nile: task 5 failed with transaction aa: ended with its block 105 above the solidified 100",
      "nile: task 5 succeeded with transaction aa: no canonical block held the transaction when it ended"
    ])
  })
})

describe("deliveryIsolation", () => {
  const event = depositEventRow(depositRow("1", 1))
  const snapshot = { ...emptySnapshot, events: [event] }
  const post = (over: Partial<ReceivedWebhook>): ReceivedWebhook => ({
    appId: "1000001",
    url: "https://hooks.simulated.test/hooks/tenant-1/nile/v2",
    eventId: event.id,
    eventType: event.eventType,
    payload: event.payload,
    at: 0,
    answer: "ack",
    ...over
  })

  it("accepts a POST to a URL of the event's tenant and network as its app", () => {
    expect(deliveryIsolation(snapshot, [post({})], ledger)).toEqual([])
  })

  it("reports another tenant's app, another tenant's URL, another network's URL", () => {
    expect(deliveryIsolation(snapshot, [
      post({ appId: "1000002" }),
      post({ url: "https://hooks.simulated.test/hooks/tenant-2/nile/v1" }),
      post({ url: "https://hooks.simulated.test/hooks/tenant-1/main/v1" })
    ], ledger)).toEqual([
      "request for event 101 of tenant 1 on nile to https://hooks.simulated.test/hooks/tenant-1/nile/v2 as app 1000002: the scope's app is 1000001",
      "request for event 101 of tenant 1 on nile to https://hooks.simulated.test/hooks/tenant-2/nile/v1 as app 1000001: not a URL of tenant-1 on nile",
      "request for event 101 of tenant 1 on nile to https://hooks.simulated.test/hooks/tenant-1/main/v1 as app 1000001: not a URL of tenant-1 on nile"
    ])
  })
})

describe("sweepDestination", () => {
  const mine = walletRow("1", "TWallet1")
  const theirs = walletRow("2", "TWallet2", { tenantId: otherTenant })
  const chain = (transfers: ChainFacts["transfers"]): ChainFacts => ({ network: "nile", transfers, inclusions: new Map() })

  it("accepts tasks to their own collection address and payments into it from its tenant's wallets and from outside", () => {
    const snapshot = { ...emptySnapshot, wallets: [mine, theirs], sweepTasks: [taskRow("5", mine, 7n, "aa")] }
    expect(sweepDestination(snapshot, chain([transfer("aa", "TWallet1", collection, 7n), transfer("bb", "TOutsider", collection, 1n)]), ledger)).toEqual([])
  })

  it("reports a task to another tenant's collection address, and a transfer into it from another tenant's wallet", () => {
    const snapshot = { ...emptySnapshot, wallets: [mine, theirs], sweepTasks: [taskRow("5", mine, 7n, "aa", { destination: "TCollection2" })] }
    expect(sweepDestination(snapshot, chain([transfer("aa", "TWallet1", "TCollection2", 7n)]), ledger)).toEqual([
      "nile: task 5 of tenant 1 sweeps to TCollection2, its collection address is TCollection",
      "nile: 7 from wallet 1 of tenant 1 to the collection address TCollection2 of tenant 2 (aa:0)"
    ])
  })

  it("accepts a wallet of one tenant as the collection address of both, and reports a third tenant's sweep into it", () => {
    // Tenant 2's wallet TWallet2 is tenant 2's own collection address and tenant 1's.
    const shared = {
      ...ledger,
      collectionAddressOf: () => "TWallet2",
      collectionAddresses: [
        { tenantId, network: "nile" as const, address: "TWallet2" },
        { tenantId: otherTenant, network: "nile" as const, address: "TWallet2" }
      ]
    }
    const third = walletRow("3", "TWallet3", { tenantId: "3" as Kernel.TenantId })
    const also = walletRow("4", "TWallet4", { tenantId: otherTenant })
    const snapshot = {
      ...emptySnapshot,
      wallets: [mine, theirs, third, also],
      sweepTasks: [taskRow("5", mine, 7n, "aa", { destination: "TWallet2" }), taskRow("6", also, 2n, "bb", { destination: "TWallet2" })]
    }
    const moves = [transfer("aa", "TWallet1", "TWallet2", 7n), transfer("bb", "TWallet4", "TWallet2", 2n)]
    expect(sweepDestination(snapshot, chain(moves), shared)).toEqual([])
    expect(sweepDestination(snapshot, chain([...moves, transfer("cc", "TWallet3", "TWallet2", 3n)]), shared)).toEqual([
      "nile: 3 from wallet 3 of tenant 3 to the collection address TWallet2 of tenant 1, 2 (cc:0)"
    ])
  })
})
