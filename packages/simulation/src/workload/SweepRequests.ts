import type { Kernel, Sweeps } from "@collector/core"
import { Effect } from "effect"
import { type SimScope, type SimWallet, solidUsdt } from "./Population.js"
import { headOf, usdt, type Workload } from "./Workload.js"

// The contract refuses a wallet named twice: the tenant names each once.
const bodyOf = (request: Sweeps.SweepRequest) => ({
  wallet_ids: [...new Set(request.walletIds)],
  sweep_mode: request.mode,
  ...(request.amount === null ? {} : { amount: String(request.amount) })
})

/**
 * A manual sweep of the scope through the API's create operation: mode `all` or `fixed`, one
 * wallet or several (now and then one of another scope). Which wallets get a
 * task, and how each task pays and ends, is the service's to decide.
 */
export const requestSweep = (workload: Workload, scope: SimScope) =>
  Effect.gen(function*() {
    const { dice, population } = workload
    // Mostly wallets whose payments are solidified (what the service reads); now and then any.
    const head = yield* headOf(workload, scope.scope.network)
    const paid = scope.wallets.filter((w) => solidUsdt(w, head) > 0n)
    const wallets = paid.length > 0 && dice.chance(0.9) ? paid : scope.wallets
    if (wallets.length === 0) return
    const chosen: Array<SimWallet> = dice.chance(0.5)
      ? [dice.pick(wallets)]
      : Array.from({ length: dice.int(2, Math.min(4, wallets.length + 1)) }, () => dice.pick(wallets))
    const walletIds: Array<Kernel.WalletId> = chosen.map((w) => w.id)
    const strangers = population.wallets.filter((w) => w.scope !== scope.scope)
    if (strangers.length > 0 && dice.chance(0.1)) walletIds.push(dice.pick(strangers).id)
    // A fixed amount mostly within what the first wallet was paid, sometimes above it.
    const within = solidUsdt(chosen[0]!, head) / 1_000_000n
    const fixed = dice.chance(0.4)
    const amount = within > 0n && dice.chance(0.8) ? usdt(dice.amount(1n, within)) : usdt(dice.amount(1n, 30n))
    const request: Sweeps.SweepRequest = { walletIds, mode: fixed ? "fixed" : "all", amount: fixed ? amount : null }
    const other: Sweeps.SweepRequest = { ...request, mode: "fixed", amount: (request.amount ?? 0n) + 1n }
    // Per-item failures are part of the answer (200); nothing is a saved refusal.
    yield* workload.replays.send({
      scope,
      operation: "sweeps.create",
      path: "/open/v1/sweeps",
      body: bodyOf(request),
      expected: [],
      conflicting: { body: bodyOf(other) }
    })
  })
