import { defaultSimConfig, SimHttp, simServerConfig } from "@collector/tron-sim"
import { Cause, ConfigProvider, Effect, Exit, Fiber } from "effect"
import { parseArgs } from "node:util"

/**
 * Runs the simulator as a process, for local development and a tenant's integration tests:
 * `npm run devchain -- --port 8090 --block-time 3 --seed demo`. The flags override the
 * environment: TRON_SIM_PORT (8090, java-tron's), TRON_SIM_HOST (127.0.0.1), TRON_SIM_NETWORK
 * (nile), TRON_SIM_BLOCK_MS (3000; 0 for blocks only on /sim/mine), TRON_SIM_SEED.
 */

// `--block-time` is in seconds (0: blocks only on /sim/mine).
const { values: flags } = parseArgs({
  options: { port: { type: "string" }, "block-time": { type: "string" }, seed: { type: "string" } },
  strict: true
})
const given = new Map<string, string>()
if (flags.port !== undefined) given.set("TRON_SIM_PORT", flags.port)
if (flags["block-time"] !== undefined) given.set("TRON_SIM_BLOCK_MS", String(Math.round(Number(flags["block-time"]) * 1000)))
if (flags.seed !== undefined) given.set("TRON_SIM_SEED", flags.seed)
const flagsOverEnvironment = ConfigProvider.fromMap(given).pipe(ConfigProvider.orElse(() => ConfigProvider.fromEnv()))

const program = Effect.scoped(Effect.gen(function*() {
  const { blockMs, host, network, port, seed } = yield* simServerConfig
  const chain = defaultSimConfig(network, { seed, ...(blockMs > 0 ? { blockIntervalMs: blockMs } : {}) })
  const server = yield* SimHttp.start({ chain, port, host, blocks: blockMs > 0 ? "timer" : "manual" })
  yield* Effect.logInfo(`TRON simulator (${network}, USDT ${chain.usdtContract}) listening on ${server.url}`)
  return yield* Effect.never
})).pipe(Effect.withConfigProvider(flagsOverEnvironment))

const fiber = Effect.runFork(program)
fiber.addObserver((exit) => {
  if (Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause)) {
    console.error(Cause.pretty(exit.cause))
    process.exitCode = 1
  }
})
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => Effect.runFork(Fiber.interrupt(fiber)))
