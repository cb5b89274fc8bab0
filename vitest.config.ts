import { availableParallelism } from "node:os"
import { defaultServerConditions } from "vite"
import { configDefaults, defineConfig } from "vitest/config"
import { SlowFirstSequencer } from "./test-support/SlowFirstSequencer.js"
import { storeFreePackages } from "./test-support/StoreFreePackages.js"

// Our packages' exports name their TypeScript sources under this condition: tests run the
// sources, so a run needs no build (docs/architecture.md, "Packages and builds").
const sourceConditions = ["@collector/source", ...defaultServerConditions]
// vitest also hands the SSR conditions to the test workers' node as --conditions, where vite's
// "module" makes node's own require pick builds meant for bundlers (@opentelemetry/api's
// extensionless ES modules, required by prom-client): node resolves as it does in production.
const nodeConditions = sourceConditions.filter((condition) => condition !== "module")

// CI's second run (against the PostgreSQL server, `TESTS_DATABASE_ONLY=1`) repeats only what can
// differ there: the packages whose sources never reach a database ran unchanged in the first run.
const skipped = process.env.TESTS_DATABASE_ONLY === "1" ? storeFreePackages(import.meta.dirname) : []
if (skipped.length > 0) console.log(`TESTS_DATABASE_ONLY: not repeating the store-free packages ${skipped.join(", ")}`)

export default defineConfig({
  resolve: { conditions: sourceConditions },
  ssr: { resolve: { conditions: nodeConditions } },
  test: {
    include: ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.ts", "scripts/*.test.ts"],
    exclude: [...configDefaults.exclude, ...skipped.map((name) => `packages/${name}/**`)],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most of the suite's time is spent waiting on PostgreSQL, child processes and simulated blocks,
    // so one file more than the cores keeps them busy (vitest's default is one less: serial on two).
    maxWorkers: availableParallelism() + 1,
    reporters: ["default", "./test-support/SummaryReporter.ts"],
    // The slowest files first, so that none of them is left running alone at the end.
    sequence: { sequencer: SlowFirstSequencer },
    globalSetup: ["packages/postgres/src/testing/globalSetup.ts", "test-support/globalSetup.ts"],
    // A test that checks nothing fails (only `expect` counts: chai's `assert` does not).
    expect: { requireAssertions: true }
  }
})
