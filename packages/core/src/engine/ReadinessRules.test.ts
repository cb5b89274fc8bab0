import { describe, expect, it } from "@effect/vitest"
import { Either, Option } from "effect"
import type { ComponentReport } from "./ComponentStatus.js"
import { databaseCheck, heartbeatCheck, nodeCheck, providersCheck, readinessOf, scanLagCheck } from "./ReadinessRules.js"

const report = (status: string, at: number, detail = "fine"): Option.Option<ComponentReport> =>
  Option.some({ component: "sweeper", network: "nile", status, detail, updatedAt: new Date(at) })

describe("readiness rules", () => {
  it("the database is ready when it answered, with the round trip; not when it did not, with why", () => {
    expect(databaseCheck(Either.right(3))).toEqual({ component: "database", ready: true, detail: "answered in 3 ms" })
    expect(databaseCheck(Either.left("no answer within 3000 ms"))).toEqual({ component: "database", ready: false, detail: "no answer within 3000 ms" })
  })

  it("a node is ready when it named its head block", () => {
    expect(nodeCheck("nile", Either.right(1234n))).toEqual({ component: "node", network: "nile", ready: true, detail: "head block 1234" })
    expect(nodeCheck("main", Either.left("/wallet/getblock: HTTP 503"))).toEqual({ component: "node", network: "main", ready: false, detail: "/wallet/getblock: HTTP 503" })
  })

  it("a network with several nodes says how many serve; one node reads as before", () => {
    expect(nodeCheck("nile", Either.right(1234n), { healthy: 2, total: 3 })).toEqual({
      component: "node", network: "nile", ready: true, detail: "head block 1234 (2 of 3 nodes healthy)"
    })
    expect(nodeCheck("main", Either.left("a: down; b: down"), { healthy: 0, total: 2 }).detail).toBe("a: down; b: down (0 of 2 nodes healthy)")
    expect(nodeCheck("nile", Either.right(7n), { healthy: 1, total: 1 }).detail).toBe("head block 7")
  })

  it("energy providers: how many serve and why each resting one rests, never unready", () => {
    const standings = [
      { provider: "merx", rest: { until: new Date("2026-11-28T10:05:00Z"), reason: "order 12: HTTP 503" } },
      { provider: "catfee", rest: null }
    ]
    expect(providersCheck("main", standings)).toEqual({
      component: "energy_providers",
      network: "main",
      ready: true,
      detail: "1 of 2 serving (merx, catfee); merx rests until 2026-11-28T10:05:00.000Z: order 12: HTTP 503"
    })
    expect(providersCheck("nile", [{ provider: "sim", rest: null }]).detail).toBe("1 of 1 serving (sim)")
  })

  it("the scan is ready up to the bound of lag, not one block past it", () => {
    const at = (lag: bigint) => scanLagCheck("nile", Option.some(1000n), Either.right(Option.some(1000n - lag)), 60)
    expect(at(0n)).toEqual({ component: "scanner", network: "nile", ready: true, detail: "lag 0 blocks (stored block 1000, head 1000)" })
    expect(at(60n).ready).toBe(true)
    expect(at(61n)).toEqual({ component: "scanner", network: "nile", ready: false, detail: "lag 61 blocks (stored block 939, head 1000), more than 60" })
    // A node that answers from behind the stored cursor (another node behind a balancer) is no lag.
    expect(scanLagCheck("nile", Option.some(990n), Either.right(Option.some(1000n)), 0)).toMatchObject({ ready: true, detail: "lag 0 blocks (stored block 1000, head 990)" })
  })

  it("the scan is not ready when it cannot be shown current: nothing stored yet, no head, no cursor read", () => {
    expect(scanLagCheck("nile", Option.some(10n), Either.right(Option.none()), 60)).toMatchObject({ ready: false, detail: "no block stored yet: the scanner has not made its first pass" })
    expect(scanLagCheck("nile", Option.none(), Either.right(Option.some(10n)), 60)).toMatchObject({ ready: false, detail: "lag unknown: the node did not answer (stored block 10)" })
    expect(scanLagCheck("nile", Option.some(10n), Either.left("no answer within 3000 ms"), 60)).toMatchObject({
      ready: false,
      detail: "the stored cursor could not be read: no answer within 3000 ms"
    })
  })

  it("a loop is alive when it reported within the bound and is not stopped; degraded still counts", () => {
    const now = 100_000
    expect(heartbeatCheck("nile", "sweeper", report("ok", now - 4_000), now, 60_000)).toEqual({
      component: "sweeper",
      network: "nile",
      ready: true,
      detail: "reported 4 s ago: ok: fine"
    })
    expect(heartbeatCheck("nile", "sweeper", report("degraded", now - 60_000, "provider down"), now, 60_000)).toMatchObject({ ready: true })
    expect(heartbeatCheck("nile", "sweeper", report("ok", now - 60_001), now, 60_000)).toMatchObject({
      ready: false,
      detail: "silent for 60 s, more than 60 s; last said ok: fine"
    })
    expect(heartbeatCheck("nile", "sweeper", report("stopped", now, "the node keeps no transaction history"), now, 60_000)).toMatchObject({
      ready: false,
      detail: "stopped: the node keeps no transaction history"
    })
    expect(heartbeatCheck("nile", "notifier", Option.none(), now, 60_000)).toEqual({
      component: "notifier",
      network: "nile",
      ready: false,
      detail: "has not reported since this process started"
    })
  })

  it("a process is ready only when every check is", () => {
    const ok = databaseCheck(Either.right(1))
    const down = nodeCheck("nile", Either.left("down"))
    expect(readinessOf([ok]).ready).toBe(true)
    expect(readinessOf([ok, down])).toEqual({ ready: false, checks: [ok, down] })
  })
})
