import { Energy, Engine } from "@collector/core"
import { type EnergyProviderSettings, SimEnergyProvider } from "@collector/energy"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { testEngineSettings } from "./testing/EngineWorld.js"
import { createTask, pass, runUntilDone, seedScope, sentFrom, Sim, type SweepScope, sweepWorld, taskOf } from "./testing/SweepHarness.js"

const usdt = (whole: bigint) => whole * 1_000_000n

const simProvider = (url: string): EnergyProviderSettings => ({
  kind: "sim",
  network: "nile",
  config: SimEnergyProvider.defaultSimProviderConfig(url, { requestTimeout: Duration.seconds(2) })
})

/** An activated wallet holding USDT and no energy or TRX to speak of: only a rental can pay. */
const fundedWallet = (scope: SweepScope, i: number, activated = true) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    const w = scope.wallets[i]!
    if (activated) yield* sim.chain.activate(w.address, 1n)
    yield* sim.chain.mintUsdt(w.address, usdt(30n))
    yield* sim.chain.mine(25)
    return w
  })

const ordersFor = (address: string) =>
  Effect.flatMap(Sim, (sim) => Effect.map(sim.provider.orders, (orders) => orders.filter((o) => o.order.receiver === address)))

const eventTypeOf = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ event_type: string }>`SELECT event_type FROM events WHERE id = ${id}`).pipe(
    Effect.orDie,
    Effect.map((rows) => rows[0]?.event_type)
  )

layer(sweepWorld(simProvider), { excludeTestServices: true, timeout: 120_000 })("sweeper with an energy rental", (it) => {
  it.effect("rents the shortfall once, waits for it on chain, and settles with no TRX burned; provider spending apart from actual_fee", () =>
    Effect.gen(function*() {
      const scope = yield* seedScope(1)
      const w = yield* fundedWallet(scope, 0)
      const created = yield* createTask(scope, w)
      const { task, seen } = yield* runUntilDone(scope, created.id)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      expect(seen.slice(0, 2)).toEqual(["pending/renting", "pending/waiting_energy"])
      expect(task.feeSource).toBe("rental")
      expect(task.rental).toMatchObject({ orderId: `sweep-nile-${task.id}`, state: "delivered", quantity: task.preparedEnergy })
      expect(task.rental!.paidCost).toBe(task.preparedEnergy! * 90n)
      expect(task.rental!.activationCost).toBe(0n)
      expect(task.rental!.expiresAt).not.toBeNull()
      expect(task.actualFee).toBe(0n)
      expect(yield* ordersFor(w.address)).toHaveLength(1)
    }))

  it.effect("an inactive wallet is activated by the provider; the activation is accounted in activation_cost", () =>
    Effect.gen(function*() {
      const scope = yield* seedScope(1)
      const w = yield* fundedWallet(scope, 0, false)
      const created = yield* createTask(scope, w)
      const { task, seen } = yield* runUntilDone(scope, created.id)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      expect(task.rental!.activationCost).toBe(1_100_000n)
      expect(task.actualFee).toBe(0n)
    }))

  it.effect("a slow provider: the task waits in waiting_energy and goes on once the energy is on chain", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1)
      const w = yield* fundedWallet(scope, 0)
      yield* sim.provider.arm({ kind: "slow", blocks: 6 })
      const created = yield* createTask(scope, w)
      yield* pass()
      yield* pass()
      for (let i = 0; i < 3; i++) {
        yield* sim.chain.mine(1)
        yield* pass()
      }
      expect(yield* taskOf(scope, created.id)).toMatchObject({ status: "pending", stage: "waiting_energy" })
      const { task } = yield* runUntilDone(scope, created.id)
      expect(task.status).toBe("succeeded")
      expect(yield* ordersFor(w.address)).toHaveLength(1)
    }))

  // A task signs in a step of its own only after its rented energy arrived (with its own energy
  // it signs in the step that prepared it, on that step's reading): the signature reads the
  // account again and refuses to burn the wallet's TRX for energy gone meanwhile.
  it.effect("rented energy gone between its arrival and signing: failed before anything is signed, no TRX burned", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1)
      const w = yield* fundedWallet(scope, 0)
      const created = yield* createTask(scope, w)
      let task = yield* taskOf(scope, created.id)
      for (let i = 0; i < 30 && task.status !== "ready"; i++) {
        yield* pass()
        yield* sim.chain.mine(1)
        task = yield* taskOf(scope, created.id)
      }
      expect(task.status).toBe("ready")
      yield* sim.chain.undelegateEnergy(w.address, task.rental!.quantity)
      yield* sim.chain.mine(1)
      yield* pass()
      const after = yield* taskOf(scope, created.id)
      expect(after).toMatchObject({ status: "failed", transaction: null })
      expect(after.reason).toContain("energy fell")
      expect(yield* sentFrom(w.address)).toEqual([])
    }))

  it.effect("an under-delivered rental fails the task and is not renewed", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1)
      const w = yield* fundedWallet(scope, 0)
      yield* sim.provider.arm({ kind: "under-deliver", percent: 50 })
      const created = yield* createTask(scope, w)
      const { task } = yield* runUntilDone(scope, created.id)
      expect(task.status).toBe("failed")
      expect(task.reason).toContain("under-delivered")
      expect(task.rental!.state).toBe("under_delivered")
      expect(task.transaction).toBeNull()
      expect(yield* ordersFor(w.address)).toHaveLength(1)
      expect(yield* eventTypeOf(task.id)).toBe("sweep.failed")
    }))

  it.effect("a rental the provider fails: the task fails with the reason, nothing signed", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1)
      const w = yield* fundedWallet(scope, 0)
      yield* sim.provider.arm({ kind: "fail", reason: "no stock" })
      const created = yield* createTask(scope, w)
      const { task } = yield* runUntilDone(scope, created.id)
      expect(task).toMatchObject({ status: "failed", transaction: null })
      expect(task.reason).toContain("failed")
      expect(task.rental!.state).toBe("failed")
    }))

  it.effect("a refused order fails the task; nothing was ordered", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1)
      const w = yield* fundedWallet(scope, 0)
      yield* sim.provider.arm({ kind: "reject", reason: "receiver blacklisted" })
      const created = yield* createTask(scope, w)
      const { task } = yield* runUntilDone(scope, created.id)
      expect(task.status).toBe("failed")
      expect(task.reason).toContain("receiver blacklisted")
      expect(yield* ordersFor(w.address)).toHaveLength(0)
    }))

  it.effect("an unknown answer keeps the order number; verification finds the order and the task goes on: one order, one delegation", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1)
      const w = yield* fundedWallet(scope, 0)
      yield* sim.provider.arm({ kind: "unknown", lost: { mode: "504", holdMs: 0 } })
      const created = yield* createTask(scope, w)
      yield* pass()
      yield* pass()
      const uncertain = yield* taskOf(scope, created.id)
      expect(uncertain).toMatchObject({ status: "pending", stage: "renting" })
      expect(uncertain.rental!.state).toBe("unknown")
      const { task } = yield* runUntilDone(scope, created.id)
      expect(task.status).toBe("succeeded")
      expect(task.rental!.orderId).toBe(uncertain.rental!.orderId)
      expect(yield* ordersFor(w.address)).toHaveLength(1)
    }))

  it.effect("a rental above max_rental_cost fails before anything is ordered", () =>
    Effect.gen(function*() {
      const scope = yield* seedScope(1, { maxRentalCost: 1_000_000n })
      const w = yield* fundedWallet(scope, 0)
      const created = yield* createTask(scope, w)
      yield* pass()
      const task = yield* taskOf(scope, created.id)
      expect(task.status).toBe("failed")
      expect(task.reason).toContain("above max_rental_cost")
      expect(yield* ordersFor(w.address)).toHaveLength(0)
    }))

  it.effect("a provider that cannot look the number up (CatFee after a restart): the same number is sent again, still one order", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const provider = yield* Energy.EnergyProvider
      const forgetful = Energy.EnergyProvider.of({ ...provider, find: () => Effect.fail(new Energy.ProviderUnavailable({ reason: "order not sent by this process" })) })
      const scope = yield* seedScope(1)
      const w = yield* fundedWallet(scope, 0)
      yield* sim.provider.arm({ kind: "unknown", lost: { mode: "504", holdMs: 0 } })
      const created = yield* createTask(scope, w)
      // Each pass by an engine of its own over the forgetful provider, as a restarted worker.
      const forgetfulPass = Effect.provide(pass(), Engine.Engine.layer("nile", testEngineSettings).pipe(Layer.provide(Layer.succeed(Energy.EnergyProvider, forgetful))))
      yield* forgetfulPass
      yield* forgetfulPass
      expect((yield* taskOf(scope, created.id)).rental!.state).toBe("unknown")
      yield* forgetfulPass
      const placed = yield* taskOf(scope, created.id)
      expect(placed.stage).toBe("waiting_energy")
      const { task } = yield* runUntilDone(scope, created.id)
      expect(task.status).toBe("succeeded")
      expect(yield* ordersFor(w.address)).toHaveLength(1)
    }))
})
