// Writes what the SDK's tarball ships (bundle/): the sources as one ES module and one CommonJS
// module, and their types as one declaration file. Our own packages the SDK is built from
// (the contract in @collector/api and the few schemas it takes from core and tron) are inlined,
// so a tenant installs the SDK alone: its only dependencies are Effect's two packages, which it
// shares with an Effect caller. Run by `prepack` after the build (`npm run pack`).
import { build } from "esbuild"
import { copyFileSync, mkdirSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"
import { rollup } from "rollup"
import { dts } from "rollup-plugin-dts"
import ts from "typescript"

const root = join(import.meta.dirname, "..")
const out = join(root, "bundle")
// Shared with the caller: an Effect program hands the client its HttpClient and runs its effects.
const external = ["effect", "@effect/platform"]

rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })

for (const [format, file] of [["esm", "index.js"], ["cjs", "index.cjs"]]) {
  await build({
    entryPoints: [join(root, "src/index.ts")],
    bundle: true,
    platform: "node",
    target: "node20",
    format,
    // Our packages from their sources, as the repository's tests run them.
    conditions: ["@collector/source"],
    // ES module builds of CommonJS-first libraries (jsonc-parser ships a UMD main that loads by require).
    mainFields: ["module", "main"],
    external: external.flatMap((name) => [name, `${name}/*`]),
    outfile: join(out, file),
    legalComments: "inline",
    logLevel: "warning"
  })
}

// Types from the build's declarations; our packages' declarations are inlined the same way.
const types = await rollup({
  input: join(root, "dist/index.d.ts"),
  external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)) || id.startsWith("node:"),
  plugins: [dts({
    respectExternal: true,
    // Our packages resolved through their export maps to the build's declarations.
    compilerOptions: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }
  })]
})
await types.write({ file: join(out, "index.d.ts"), format: "es" })
copyFileSync(join(out, "index.d.ts"), join(out, "index.d.cts"))

// On stderr: `npm pack --json` (scripts/pack.mjs) reads stdout, prepack scripts included.
for (const file of ["index.js", "index.cjs", "index.d.ts"]) console.error(`bundle/${file}  ${(statSync(join(out, file)).size / 1024).toFixed(0)} kB`)

