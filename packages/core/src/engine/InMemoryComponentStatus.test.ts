import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ComponentStatus } from "./ComponentStatus"
import { InMemoryComponentStatus } from "./InMemoryComponentStatus"

it.effect("InMemoryComponentStatus keeps the latest report per component and network, listed by name", () =>
  Effect.gen(function*() {
    const board = yield* ComponentStatus
    const at = (s: number) => new Date(s * 1000)
    yield* board.report({ component: "scanner", network: "nile", status: "ok", detail: "at 1", updatedAt: at(1) })
    yield* board.report({ component: "balance_sync", network: "nile", status: "ok", detail: "a", updatedAt: at(2) })
    yield* board.report({ component: "balance_sync", network: "main", status: "degraded", detail: "m", updatedAt: at(3) })
    yield* board.report({ component: "balance_sync", network: "nile", status: "degraded", detail: "b", updatedAt: at(4) })
    expect(yield* board.list("nile")).toEqual([
      { component: "balance_sync", network: "nile", status: "degraded", detail: "b", updatedAt: at(4) },
      { component: "scanner", network: "nile", status: "ok", detail: "at 1", updatedAt: at(1) }
    ])
    expect((yield* board.list("main")).map((r) => r.detail)).toEqual(["m"])
  }).pipe(Effect.provide(InMemoryComponentStatus)))
