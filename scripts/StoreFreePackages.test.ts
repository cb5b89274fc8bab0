import { expect, it } from "@effect/vitest"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { storeFreePackages } from "../test-support/StoreFreePackages.js"

const root = resolve(import.meta.dirname, "..")

it("a package is store-free only while none of its sources reaches a database", () => {
  const tree = mkdtempSync(join(tmpdir(), "store-free-"))
  try {
    const file = (path: string, text: string) => {
      mkdirSync(join(tree, path, ".."), { recursive: true })
      writeFileSync(join(tree, path), text)
    }
    file("packages/pure/src/deep/Rule.ts", "export const rule = 1\n")
    file("packages/adapter/src/Store.test.ts", `import { TestDatabaseLive } from "@collector/postgres/testing"\n`)
    file("packages/settings/src/Config.test.ts", `const env = { DATABASE_URL: "postgres://u@db/x" }\n`)
    file("packages/spawns/src/deep/Main.test.ts", `startTs("apps/service/src/main.ts", {})\n`)
    mkdirSync(join(tree, "packages/nosrc"), { recursive: true })
    expect(storeFreePackages(tree)).toEqual(["pure"])
  } finally {
    rmSync(tree, { recursive: true, force: true })
  }
})

it("in this repository the database's own packages are never skipped, and the pure core is", () => {
  const free = storeFreePackages(root)
  for (const reaching of ["postgres", "server", "http-server", "simulation", "sdk", "vault"]) expect(free).not.toContain(reaching)
  expect(free).toContain("core")
})
