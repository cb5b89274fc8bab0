import { expect, layer } from "@effect/vitest"
import { ComponentStatus } from "@collector/core"
import { Effect, Layer } from "effect"
import { PgComponentStatus } from "./PgComponentStatus"
import { TestDatabaseLive } from "./testing/TestDatabase"

const TestLive = PgComponentStatus.pipe(Layer.provideMerge(TestDatabaseLive))

const at = (iso: string) => new Date(iso)

layer(TestLive)("PgComponentStatus", (it) => {
  it.effect("keeps the latest report per component and network; lists one network ordered by component", () =>
    Effect.gen(function*() {
      const board = yield* ComponentStatus
      expect(yield* board.list("nile")).toEqual([])
      yield* board.report({ component: "scanner", network: "nile", status: "ok", detail: "at block 10", updatedAt: at("2026-01-01T00:00:00.001Z") })
      yield* board.report({ component: "balance_sync", network: "nile", status: "ok", detail: "idle", updatedAt: at("2026-01-01T00:00:01Z") })
      yield* board.report({ component: "scanner", network: "main", status: "degraded", detail: "node slow", updatedAt: at("2026-01-01T00:00:02Z") })
      // A later report replaces the earlier one of the same component and network only.
      yield* board.report({ component: "scanner", network: "nile", status: "degraded", detail: "at block 12, node slow", updatedAt: at("2026-01-01T00:00:05.250Z") })
      expect(yield* board.list("nile")).toEqual([
        { component: "balance_sync", network: "nile", status: "ok", detail: "idle", updatedAt: at("2026-01-01T00:00:01Z") },
        { component: "scanner", network: "nile", status: "degraded", detail: "at block 12, node slow", updatedAt: at("2026-01-01T00:00:05.250Z") }
      ])
      expect(yield* board.list("main")).toEqual([
        { component: "scanner", network: "main", status: "degraded", detail: "node slow", updatedAt: at("2026-01-01T00:00:02Z") }
      ])
    }))

  it.effect("orders components by their bytes, whatever the database's collation", () =>
    Effect.gen(function*() {
      const board = yield* ComponentStatus
      const when = at("2026-02-01T00:00:00Z")
      for (const component of ["notifier", "Zeta", "a_b", "ab"]) {
        yield* board.report({ component, network: "main", status: "ok", detail: "", updatedAt: when })
      }
      expect((yield* board.list("main")).map((r) => r.component)).toEqual(["Zeta", "a_b", "ab", "notifier", "scanner"])
    }))
})
