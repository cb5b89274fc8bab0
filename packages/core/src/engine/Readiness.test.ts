import { describe, expect, it } from "@effect/vitest"
import { Cause, Duration, Effect, Layer, Option, TestClock } from "effect"
import type { ChainService } from "../chain/Chain.js"
import { ChainUnavailable } from "../chain/ChainErrors.js"
import { ScanLedger } from "../scanning/ScanLedger.js"
import { StorageProbe, StorageUnreachable } from "../storage/StorageProbe.js"
import { ComponentStatus, type ComponentReport } from "./ComponentStatus.js"
import { apiComponent, DatabaseWaits } from "./DatabaseWaits.js"
import { Heartbeats } from "./Heartbeats.js"
import { Readiness } from "./Readiness.js"
import { defaultReadinessSettings } from "./ReadinessSettings.js"

const settings = { ...defaultReadinessSettings, maxScanLagBlocks: 10, checkTimeout: Duration.millis(200) }

const chainAt = (head: Effect.Effect<bigint, ChainUnavailable>) =>
  ({ headBlock: Effect.map(head, (number) => ({ number, hash: "", parentHash: "", timestamp: new Date(0) })) }) as unknown as ChainService

const world = (options: { readonly ping?: Effect.Effect<void, StorageUnreachable>; readonly cursor?: bigint }) =>
  Layer.mergeAll(
    Layer.succeed(StorageProbe, { ping: options.ping ?? Effect.void }),
    Layer.succeed(ScanLedger, {
      cursor: () => Effect.succeed(options.cursor === undefined ? Option.none() : Option.some({ number: options.cursor, hash: "" }))
    } as unknown as ScanLedger["Type"]),
    Heartbeats.layer
  )

/** Reports through the recording board, as the engine's loops do; the board below keeps them too. */
const beat = (component: string, status = "ok", detail = "") =>
  Effect.gen(function*() {
    const written: Array<ComponentReport> = []
    const board = Layer.succeed(ComponentStatus, { report: (r) => Effect.sync(() => void written.push(r)), list: () => Effect.succeed(written) })
    const at = new Date(yield* TestClock.currentTimeMillis)
    const status$ = yield* Effect.provide(ComponentStatus, Heartbeats.recording.pipe(Layer.provide(board)))
    yield* status$.report({ component, network: "nile", status, detail, updatedAt: at })
    return written
  })

const check = (networks: ReadonlyArray<{ readonly network: "nile"; readonly chain: ChainService }>) =>
  Effect.flatMap(Readiness, (readiness) => readiness.check).pipe(Effect.provide(Readiness.engines(networks, settings)))

const failing = (report: { readonly checks: ReadonlyArray<{ readonly component: string; readonly ready: boolean; readonly detail: string }> }) =>
  report.checks.filter((c) => !c.ready).map((c) => `${c.component}: ${c.detail}`)

describe("Readiness", () => {
  it.effect("engines: ready when the store answers, the node answers, the scan is current and the notifier and sweeper reported", () =>
    Effect.gen(function*() {
      const written = yield* beat("notifier")
      yield* beat("sweeper", "degraded", "provider down")
      expect(written).toHaveLength(1)
      const report = yield* check([{ network: "nile", chain: chainAt(Effect.succeed(105n)) }])
      expect(failing(report)).toEqual([])
      expect(report.ready).toBe(true)
      expect(report.checks.map((c) => c.component)).toEqual(["database", "node", "scanner", "notifier", "sweeper"])
    }).pipe(Effect.provide(world({ cursor: 100n }))))

  it.effect("engines: a node that fails names the node (and the scan it cannot measure)", () =>
    Effect.gen(function*() {
      yield* beat("notifier")
      yield* beat("sweeper")
      const report = yield* check([{ network: "nile", chain: chainAt(Effect.fail(new ChainUnavailable({ reason: "/wallet/getblock: HTTP 503" }))) }])
      expect(report.ready).toBe(false)
      expect(failing(report)).toEqual(["node: /wallet/getblock: HTTP 503", "scanner: lag unknown: the node did not answer (stored block 100)"])
    }).pipe(Effect.provide(world({ cursor: 100n }))))

  it.effect("engines: a scan behind by more than the bound, and loops silent past the bound or never heard from", () =>
    Effect.gen(function*() {
      yield* beat("sweeper")
      yield* TestClock.adjust("61 seconds")
      const report = yield* check([{ network: "nile", chain: chainAt(Effect.succeed(111n)) }])
      expect(failing(report)).toEqual([
        "scanner: lag 11 blocks (stored block 100, head 111), more than 10",
        "notifier: has not reported since this process started",
        "sweeper: silent for 61 s, more than 60 s; last said ok"
      ])
    }).pipe(Effect.provide(world({ cursor: 100n }))))

  it.live("engines: a node that does not answer fails its check at the timeout instead of holding the probe", () =>
    Effect.gen(function*() {
      const report = yield* check([{ network: "nile", chain: chainAt(Effect.never) }])
      expect(failing(report).slice(0, 2)).toEqual(["node: no answer within 200 ms", "scanner: lag unknown: the node did not answer (stored block 100)"])
    }).pipe(Effect.provide(world({ cursor: 100n }))))

  it.effect("storage: the API is ready when the store answers, whatever the nodes do", () =>
    Effect.gen(function*() {
      const ready = yield* Effect.flatMap(Readiness, (r) => r.check).pipe(Effect.provide(Readiness.storage(settings)), Effect.provide(world({})))
      expect(ready.ready).toBe(true)
      expect(ready.checks.map((c) => c.component)).toEqual(["database"])
      const down = yield* Effect.flatMap(Readiness, (r) => r.check).pipe(
        Effect.provide(Readiness.storage(settings)),
        Effect.provide(world({ ping: Effect.fail(new StorageUnreachable({ cause: new Error("connection refused") })) }))
      )
      expect(failing(down)).toEqual(["database: unreachable: Error: connection refused"])
    }))

  describe("while the database is out of reach", () => {
    const lost = () => Object.assign(new Error("Connection terminated unexpectedly"), { code: "57P01" })
    const waitsLayer = Layer.fresh(DatabaseWaits.layer((error) => (error as { code?: unknown }).code === "57P01"))
    let databaseUp = false
    const switched = world({ cursor: 100n, ping: Effect.suspend(() => (databaseUp ? Effect.void : Effect.fail(new StorageUnreachable({ cause: new Error("connection refused") })))) })
    const notReady = (report: { readonly checks: ReadonlyArray<{ readonly component: string; readonly network?: string; readonly ready: boolean; readonly detail: string }> }) =>
      report.checks.filter((c) => !c.ready).map(({ component, detail, network }) => ({ component, network, detail }))

    it.effect("engines: each loop that waits for the database is named, with since when and what it met", () =>
      Effect.gen(function*() {
        databaseUp = false
        yield* beat("notifier")
        yield* beat("sweeper")
        yield* TestClock.adjust("7 seconds")
        yield* Effect.exit(DatabaseWaits.watching("sweeper", "nile")(Effect.die(lost())))
        yield* Effect.exit(DatabaseWaits.watching("fee_booking", "nile")(Effect.die(lost())))
        const report = yield* check([{ network: "nile", chain: chainAt(Effect.succeed(105n)) }])
        expect(report.ready).toBe(false)
        expect(notReady(report).filter((c) => c.component !== "database")).toEqual([
          { component: "sweeper", network: "nile", detail: "waiting for the database since 1970-01-01T00:00:07.000Z: Connection terminated unexpectedly" },
          { component: "fee_booking", network: "nile", detail: "waiting for the database since 1970-01-01T00:00:07.000Z: Connection terminated unexpectedly" }
        ])
        // The database is back and each loop's next pass reaches it: ready again.
        yield* DatabaseWaits.watching("sweeper", "nile")(Effect.void)
        yield* DatabaseWaits.watching("fee_booking", "nile")(Effect.void)
        databaseUp = true
        const after = yield* check([{ network: "nile", chain: chainAt(Effect.succeed(105n)) }])
        expect(failing(after)).toEqual([])
      }).pipe(Effect.provide(switched), Effect.provide(waitsLayer)))

    it.effect("storage: the API that answered 503 is named until the database answers its probe again", () =>
      Effect.gen(function*() {
        const apiCheck = Effect.flatMap(Readiness, (r) => r.check).pipe(Effect.provide(Readiness.storage(settings)))
        databaseUp = false
        yield* TestClock.adjust("3 seconds")
        yield* Effect.flatMap(DatabaseWaits, (waits) => waits.failed(apiComponent, undefined, Cause.die(lost())))
        const down = yield* apiCheck
        expect(notReady(down)).toEqual([
          { component: "database", network: undefined, detail: "unreachable: Error: connection refused" },
          { component: "api", network: undefined, detail: "waiting for the database since 1970-01-01T00:00:03.000Z: Connection terminated unexpectedly" }
        ])
        // No request need come (a balancer keeps an unready API out): the probe's answer ends the wait.
        databaseUp = true
        const back = yield* apiCheck
        expect(back.ready).toBe(true)
        expect(yield* Effect.flatMap(DatabaseWaits, (waits) => waits.current)).toEqual([])
      }).pipe(Effect.provide(switched), Effect.provide(waitsLayer)))
  })
})
