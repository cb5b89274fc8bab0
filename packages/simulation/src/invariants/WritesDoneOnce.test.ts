import type { Kernel } from "@collector/core"
import { describe, expect, it } from "@effect/vitest"
import { emptySnapshot, taskRow, tenantId, walletRow } from "../testing/Rows.js"
import type { SentWrite } from "../workload/WorkloadLedger.js"
import { writesDoneOnce } from "./WritesDoneOnce.js"

const scope = { tenantId: tenantId as Kernel.TenantId, network: "nile" as const }

const walletAnswer = (id: string, customId: string, address: string) =>
  `200 ${JSON.stringify({ code: 0, message: "", data: { id, address, custom_id: customId, chain: "TRON", created_at: "2026-06-01T00:00:00.000Z", network: "nile" } })}`

const task = (id: string, walletId: string, address: string) => ({
  network: "nile",
  id,
  wallet_id: walletId,
  address,
  kind: "sweep",
  sweep_mode: "all",
  requested_amount: null,
  amount: "0",
  destination: "TCollection",
  status: "pending",
  reason: "",
  txid: "",
  actual_fee: "0",
  created_at: "2026-06-01T00:00:00.000Z",
  updated_at: "2026-06-01T00:00:00.000Z",
  webhook: null,
  preparation_stage: "queued",
  energy_rental: null,
  fee_source: null,
  energy_path: null,
  fee_reason: null,
  prepared_energy: null,
  estimated_wallet_trx_fee: null,
  max_wallet_trx_fee: null,
  actual_bandwidth_fee: null,
  fee_warning: null
})

const sweepAnswer = (items: ReadonlyArray<ReturnType<typeof task>>) =>
  `200 ${JSON.stringify({ code: 0, message: "", data: { network: "nile", items: items.map((t) => ({ wallet_id: t.wallet_id, ok: true, task: t, error: null })), created: items.length, failed: 0 } })}`

const write = (operation: string, requestId: string, body: Record<string, unknown>, answer: string): SentWrite => ({ operation, scope, requestId, body, answer })

describe("WritesDoneOnce", () => {
  const w1 = walletRow("1", "TWallet1", { customId: "w-1" })
  const w2 = walletRow("2", "TWallet2", { customId: "w-2" })
  const writes = [
    write("wallets.create", "req-1", { custom_id: "w-1" }, walletAnswer("1", "w-1", "TWallet1")),
    write("wallets.create", "req-2", { custom_id: "w-2" }, walletAnswer("2", "w-2", "TWallet2")),
    write("wallets.create", "req-3", { custom_id: "w-1" }, `409 {"code":409,"message":"taken","error_code":"BUSINESS_CONFLICT"}`),
    write("sweeps.create", "req-4", { wallet_ids: ["1"], sweep_mode: "all" }, sweepAnswer([task("7", "1", "TWallet1")]))
  ]
  const tasks = [taskRow("7", w1, 0n, null, { origin: "manual" }), taskRow("8", w2, 0n, null, { origin: "automation" })]

  it("passes when the store holds exactly what the first answers named", () => {
    expect(writesDoneOnce({ ...emptySnapshot, wallets: [w1, w2], sweepTasks: tasks }, writes)).toEqual([])
  })

  it("reports a wallet or a manual task no first answer named, and an answered one the store lacks or holds otherwise", () => {
    const extra = walletRow("3", "TWallet3", { customId: "w-1-other" })
    const twice = taskRow("9", w1, 0n, null, { origin: "manual" })
    const moved = walletRow("2", "TWallet2", { customId: "w-9" })
    expect(writesDoneOnce({ ...emptySnapshot, wallets: [w1, moved, extra], sweepTasks: [...tasks, twice] }, writes)).toEqual([
      "wallet 2 is w-9 TWallet2 of 1/nile, answered w-2 TWallet2 of 1/nile",
      "wallet 3 (w-1-other) of 1/nile was created by no first answer to a create: done twice or by a conflicting request",
      "manual task 9 of wallet 1 was created by no first answer to a sweep create: done twice or by a conflicting request"
    ])
    expect(writesDoneOnce({ ...emptySnapshot, wallets: [w1, w2] }, writes)).toEqual([
      "sweeps.create req-4 answered task 7, which the store does not hold"
    ])
  })
})
