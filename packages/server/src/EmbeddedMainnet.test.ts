import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option, Redacted } from "effect"
import type { DatabaseSettings } from "@collector/postgres"
import { embeddedMainnetGuard } from "./EmbeddedMainnet.js"

const embedded: DatabaseSettings = { url: Option.none(), dataDir: "/srv/collector", embeddedPort: 54329, poolSize: 20, startTimeoutMs: 60_000 }
const server: DatabaseSettings = { ...embedded, url: Option.some(Redacted.make("postgres://u:p@db:5432/collector")) }

const run = (networks: ReadonlyArray<"main" | "nile">, database: DatabaseSettings, env: Record<string, string> = {}) =>
  embeddedMainnetGuard(networks, database).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))), Effect.either)

describe("main on the embedded database", () => {
  it.effect("refused by default, naming DATABASE_URL and EMBEDDED_DATABASE_MAINNET", () =>
    Effect.gen(function*() {
      const refused = yield* run(["nile", "main"], embedded)
      expect(refused._tag).toBe("Left")
      expect(String(refused._tag === "Left" ? refused.left : "")).toMatch(/main network needs DATABASE_URL.*EMBEDDED_DATABASE_MAINNET=true/)
    }))

  it.effect("allowed with EMBEDDED_DATABASE_MAINNET=true; nile alone, or a server, needs nothing", () =>
    Effect.gen(function*() {
      expect((yield* run(["main"], embedded, { EMBEDDED_DATABASE_MAINNET: "true" }))._tag).toBe("Right")
      expect((yield* run(["nile"], embedded))._tag).toBe("Right")
      expect((yield* run(["main"], server))._tag).toBe("Right")
      expect((yield* run(["main"], embedded, { EMBEDDED_DATABASE_MAINNET: "perhaps" }))._tag).toBe("Left")
    }))
})
