import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { AccessLog, type AccessEntry } from "./AccessLog.js"

const entry: AccessEntry = { trace_id: "0af7651916cd43dd8448eb211c80319c", app_id: "1000001", method: "POST", route: "/open/v1/wallets", status: 201, duration_ms: 3.25 }

const written = (layer: (sink: (line: string) => void) => ReturnType<typeof AccessLog.to>) => {
  const lines: Array<string> = []
  Effect.runSync(Effect.provide(Effect.map(AccessLog, (log) => log.write(entry)), layer((line) => lines.push(line))))
  return lines
}

describe("AccessLog", () => {
  it("writes one JSON object per request for a collector", () => {
    const [line] = written(AccessLog.to)
    expect(JSON.parse(line!)).toMatchObject({ message: "request", logLevel: "INFO", annotations: entry })
  })

  it("writes one readable line per request at a terminal, with the same fields and nothing else", () => {
    const lines = written(AccessLog.prettyTo)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO request: POST \/open\/v1\/wallets 201 3\.25 ms app_id=1000001 trace_id=0af7651916cd43dd8448eb211c80319c$/)
  })
})
