import type { Delegation, Sweeps } from "@collector/core"
import { describe, expect, it } from "@effect/vitest"
import { emptySnapshot } from "../testing/Rows.js"
import { noDelegationLeaked } from "./NoDelegationLeaked.js"

const owner = "TOwner1"
const at = new Date(Date.UTC(2026, 5, 1))
const row = (taskId: string, receiver: string, txid: string, state: Delegation.EnergyDelegation["state"] = "reclaimed"): Delegation.EnergyDelegation => ({
  taskId: taskId as Sweeps.SweepTaskId,
  network: "nile",
  owner,
  receiver,
  energy: 65_000n,
  balance: 6_500_000_000n,
  state,
  delegateTxid: txid,
  delegateExpiration: at,
  reclaimTxid: state === "reclaimed" ? "bb" : null,
  reclaimExpiration: state === "reclaimed" ? at : null,
  createdAt: at,
  updatedAt: at
})
const onChain = (txid: string, receiver: string) => ({ txid, receiver, blockNumber: 10n })

describe("noDelegationLeaked", () => {
  it("accepts delegations all reclaimed, one on chain per task", () => {
    const snapshot = { ...emptySnapshot, delegations: [row("5", "TWallet1", "a1"), row("6", "TWallet1", "a2")] }
    expect(noDelegationLeaked(snapshot, "nile", owner, { outstanding: [], delegations: [onChain("a1", "TWallet1"), onChain("a2", "TWallet1")] })).toEqual([])
  })

  it("reports stake still lent, a row not reclaimed, a delegation no row recorded, a wallet lent more often than its tasks borrowed", () => {
    const snapshot = { ...emptySnapshot, delegations: [row("5", "TWallet1", "a1", "confirmed")] }
    const facts = { outstanding: [{ receiver: "TWallet1", sun: 6_500_000_000n }], delegations: [onChain("a1", "TWallet1"), onChain("a9", "TWallet1")] }
    expect(noDelegationLeaked(snapshot, "nile", owner, facts)).toEqual([
      "nile: the resource account TOwner1 still delegates 6500000000 SUN of energy stake to TWallet1 after settling",
      "nile: the delegation of task 5 to TWallet1 ended confirmed, not reclaimed",
      "nile: delegation a9 to TWallet1 is on chain, but no delegation ledger row records it",
      "nile: TWallet1 got 2 delegations from the resource account on chain, for 1 tasks that borrowed"
    ])
  })
})
