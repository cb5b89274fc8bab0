import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default", "./test-support/SummaryReporter.ts"],
    globalSetup: ["packages/postgres/src/testing/globalSetup.ts"]
  }
})
