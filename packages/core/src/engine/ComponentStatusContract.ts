import { expect, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { ComponentStatus } from "./ComponentStatus.js"

const at = (iso: string) => new Date(iso)

/**
 * What every ComponentStatus must do, run against each implementation with the storage it is
 * given. The storage is shared by the tests of one run, so each test reads back only the
 * components it wrote.
 */
export const componentStatusContract = <E>(name: string, storage: Layer.Layer<ComponentStatus, E>) =>
  layer(storage)(`ComponentStatus contract (${name})`, (it) => {
    it.effect("keeps the latest report per component and network; lists one network ordered by component", () =>
      Effect.gen(function*() {
        const board = yield* ComponentStatus
        const mine = (network: "main" | "nile") =>
          Effect.map(board.list(network), (reports) => reports.filter((r) => r.component === "scanner" || r.component === "balance_sync"))
        yield* board.report({ component: "scanner", network: "nile", status: "ok", detail: "at block 10", updatedAt: at("2026-01-01T00:00:00.001Z") })
        yield* board.report({ component: "balance_sync", network: "nile", status: "ok", detail: "idle", updatedAt: at("2026-01-01T00:00:01Z") })
        yield* board.report({ component: "scanner", network: "main", status: "degraded", detail: "node slow", updatedAt: at("2026-01-01T00:00:02Z") })
        // A later report replaces the earlier one of the same component and network only.
        yield* board.report({ component: "scanner", network: "nile", status: "degraded", detail: "at block 12, node slow", updatedAt: at("2026-01-01T00:00:05.250Z") })
        expect(yield* mine("nile")).toEqual([
          { component: "balance_sync", network: "nile", status: "ok", detail: "idle", updatedAt: at("2026-01-01T00:00:01Z") },
          { component: "scanner", network: "nile", status: "degraded", detail: "at block 12, node slow", updatedAt: at("2026-01-01T00:00:05.250Z") }
        ])
        expect(yield* mine("main")).toEqual([
          { component: "scanner", network: "main", status: "degraded", detail: "node slow", updatedAt: at("2026-01-01T00:00:02Z") }
        ])
      }))

    it.effect("orders components by their bytes, whatever the database's collation", () =>
      Effect.gen(function*() {
        const board = yield* ComponentStatus
        const when = at("2026-02-01T00:00:00Z")
        const written = ["notifier", "Zeta", "a_b", "ab"]
        for (const component of written) {
          yield* board.report({ component, network: "main", status: "ok", detail: "", updatedAt: when })
        }
        const listed = (yield* board.list("main")).map((r) => r.component)
        expect(listed.filter((c) => written.includes(c))).toEqual(["Zeta", "a_b", "ab", "notifier"])
        expect(listed).toEqual([...listed].sort())
      }))
  })
