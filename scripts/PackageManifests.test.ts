import { describe, expect, it } from "@effect/vitest"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import ts from "typescript"
import { version } from "@collector/launch"

// What a consumer installs from each tarball must be enough to load what it imports: a bare import
// in a shipped file resolves in a workspace (everything is hoisted) even when the package does not
// declare it, and would fail only after publishing.
const root = resolve(import.meta.dirname, "..")

interface Manifest {
  readonly name: string
  readonly version: string
  readonly private?: boolean
  readonly license?: string
  readonly sideEffects?: boolean
  readonly engines?: Record<string, string>
  readonly files?: ReadonlyArray<string>
  readonly exports?: Record<string, Record<string, string> | string>
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>
  readonly devDependencies?: Record<string, string>
}

const workspaces = readdirSync(join(root, "packages")).map((dir) => ({
  dir: join(root, "packages", dir),
  manifest: JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8")) as Manifest
}))
// A private package holds tests that need several of ours (packages/engine-tests): never packed.
const packages = workspaces.filter(({ manifest }) => manifest.private !== true)
const privates = workspaces.filter(({ manifest }) => manifest.private === true)

/** Every TypeScript file below `dir`: sources, tests and test helpers. */
const allSources = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return allSources(path)
    return entry.name.endsWith(".ts") ? [path] : []
  })

/** The files the build ships: not tests, not the test-only `testing/` folders below the top one. */
const shipped = (src: string, dir = src): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "testing" && dir !== src ? [] : shipped(src, path)
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : []
  })

const packageOf = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/")

const importsOf = (file: string) =>
  ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => !specifier.startsWith(".") && !specifier.startsWith("node:"))
    .map(packageOf)

/** Whether a file loads a package when it is loaded itself (a value import, not a type or a dynamic one). */
const staticallyImports = (text: string, name: string) =>
  new RegExp(`^\\s*(import|export)\\s+(?!type\\b)[^;]*?from\\s+"${name}(/[^"]*)?"`, "m").test(text) || new RegExp(`^\\s*import\\s+"${name}"`, "m").test(text)

/** Relative imports a file makes that load another file with it (not `import type`). */
const relativeValueImports = (file: string) => {
  const text = readFileSync(file, "utf8")
  return [...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+"(\.{1,2}\/[^"]+)\.js"/gm)]
    .map((match) => resolve(dirname(file), `${match[1]}.ts`))
    .filter((path) => existsSync(path))
}

/** The files loading the entries loads. */
const closure = (entries: ReadonlyArray<string>): ReadonlySet<string> => {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const next of relativeValueImports(file)) visit(next)
  }
  for (const entry of entries) if (existsSync(entry)) visit(entry)
  return seen
}

const effectPackages = (manifest: Manifest) =>
  Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).filter((name) => name === "effect" || name.startsWith("@effect/"))

describe.each(packages)("$manifest.name", ({ dir, manifest }) => {
  const optional = (name: string) => manifest.peerDependenciesMeta?.[name]?.optional === true
  const required = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {}).filter((name) => !optional(name))]
  const declared = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]
  const src = join(dir, "src")
  const testingEntry = join(src, "testing")
  // The tenant SDK ships one bundle (packages/sdk/scripts/bundle.mjs): our packages inlined, Effect's shared.
  const bundled = manifest.files?.includes("bundle") === true

  it("is publishable: a 0.x version, a licence, engines, no side effects, built files and sources", () => {
    expect(manifest.private).toBeUndefined()
    expect(manifest.version).toMatch(/^0\.\d+\.\d+$/)
    // Released together: the start line's version is every package's.
    expect(manifest.version).toBe(version)
    expect(manifest.license).toBe("Apache-2.0")
    expect(manifest.engines?.node).toBeDefined()
    expect(manifest.sideEffects).toBe(false)
    expect(manifest.files).toEqual(expect.arrayContaining([bundled ? "bundle" : "dist", "README.md", "LICENSE"]))
    expect(existsSync(join(dir, "README.md"))).toBe(true)
  })

  it("exports each entry as types and import of the build, and its source under @collector/source", () => {
    // `./*`: each feature folder's barrel as an entry of its own (the core's namespaces), so that
    // declaration files can name a type of a namespace their source never imported.
    const featureEntry = manifest.exports?.["./*"]
    if (featureEntry !== undefined) {
      expect(featureEntry).toEqual({ "@collector/source": "./src/*/index.ts", types: "./dist/*/index.d.ts", import: "./dist/*/index.js" })
    }
    const entries = Object.entries(manifest.exports ?? {}).filter(([path]) => path !== "./package.json" && path !== "./*")
    const main = existsSync(join(testingEntry, "index.ts")) ? [".", "./testing"] : ["."]
    expect(entries.map(([path]) => path).slice(0, main.length)).toEqual(main)
    // Further entries are test helpers that must load outside vitest (a SoftHSM2 token for a
    // process test or a benchmark): only ever a file of the testing folder.
    for (const [, target] of entries.slice(main.length)) {
      expect((target as Record<string, string>)["@collector/source"]).toMatch(/^\.\/src\/testing\/\w+\.ts$/)
    }
    if (bundled) {
      expect(manifest.exports?.["."]).toEqual({
        "@collector/source": "./src/index.ts",
        import: { types: "./bundle/index.d.ts", default: "./bundle/index.js" },
        require: { types: "./bundle/index.d.cts", default: "./bundle/index.cjs" }
      })
      return
    }
    for (const [path, conditions] of entries.slice(0, main.length)) {
      const sub = path === "." ? "" : `${path.slice(2)}/`
      expect(conditions).toEqual({ "@collector/source": `./src/${sub}index.ts`, types: `./dist/${sub}index.d.ts`, import: `./dist/${sub}index.js` })
    }
    for (const [, conditions] of entries.slice(main.length)) {
      const file = ((conditions as Record<string, string>)["@collector/source"] ?? "").replace(/^\.\/src\/(.*)\.ts$/, "$1")
      expect(conditions).toEqual({ "@collector/source": `./src/${file}.ts`, types: `./dist/${file}.d.ts`, import: `./dist/${file}.js` })
    }
  })

  it("takes Effect's packages as peers, never as dependencies", () => {
    // A plain JS tenant installs the SDK alone: Effect comes with it, nothing of the server's does.
    if (bundled) return expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual(["@effect/platform", "effect"])
    expect(Object.keys(manifest.dependencies ?? {}).filter((name) => name === "effect" || name.startsWith("@effect/"))).toEqual([])
    for (const name of effectPackages(manifest)) expect(manifest.devDependencies?.[name], name).toBe(manifest.peerDependencies?.[name])
  })

  // The main entry may reach an optional peer only lazily (`import type`, `await import()`), as the
  // embedded database does, so that a project without it can still load the package.
  it("declares what its shipped files import: the main entry from required packages, the testing entry from any", () => {
    // A bundle inlines every import but the ones it keeps external, which must be its dependencies.
    if (bundled) {
      const external = /const external = (\[[^\]]*\])/.exec(readFileSync(join(dir, "scripts/bundle.mjs"), "utf8"))?.[1]
      return expect(JSON.parse(external ?? "[]").sort()).toEqual(Object.keys(manifest.dependencies ?? {}).sort())
    }
    // A contract suite sits beside its port and imports vitest: it is loaded through a testing
    // entry only, which the main entry must never reach.
    const main = closure([join(src, "index.ts")])
    const testingEntries = Object.entries(manifest.exports ?? {})
      .filter(([path]) => path !== "." && path !== "./package.json")
      .map(([, conditions]) => join(dir, (conditions as Record<string, string>)["@collector/source"] ?? ""))
    const testingOnly = closure(testingEntries)
    const undeclared = shipped(src).flatMap((file) => {
      const allowed = (file.startsWith(testingEntry) || testingOnly.has(file)) && !main.has(file) ? declared : required
      const text = readFileSync(file, "utf8")
      return importsOf(file)
        .filter((name) => name !== manifest.name && !allowed.includes(name))
        .filter((name) => !(optional(name) && !staticallyImports(text, name)))
        .map((name) => `${relative(dir, file)}: ${name}`)
    })
    expect(undeclared).toEqual([])
  })
})

describe.each(privates)("$manifest.name (private)", ({ dir, manifest }) => {
  it("ships and builds nothing: no entries, no files list, no build project, only tests and their testing/ helpers", () => {
    expect(manifest.exports).toBeUndefined()
    expect(manifest.files).toBeUndefined()
    expect(existsSync(join(dir, "tsconfig.build.json"))).toBe(false)
    expect(shipped(join(dir, "src")).map((file) => relative(dir, file))).toEqual([])
  })
})

// The core decides and the adapters store (docs/architecture.md): core is the bottom of the graph.
// Its tests and test helpers too, or a test-only cycle hides there (its engine over the real
// adapters is tested in packages/engine-tests).
const ourPackages = (names: ReadonlyArray<string>, self: string) => names.filter((name) => name.startsWith("@collector/") && name !== self)

describe("@collector/core", () => {
  const dir = join(root, "packages", "core")
  const manifest = workspaces.find((workspace) => workspace.dir === dir)!.manifest

  it("lists none of our other packages in any dependency list", () => {
    const listed = [manifest.dependencies, manifest.peerDependencies, manifest.devDependencies].flatMap((list) => Object.keys(list ?? {}))
    expect(ourPackages(listed, manifest.name)).toEqual([])
  })

  it("imports none of our other packages from any file, tests and test helpers included", () => {
    const found = allSources(join(dir, "src")).flatMap((file) => ourPackages(importsOf(file), manifest.name).map((name) => `${relative(dir, file)}: ${name}`))
    expect(found).toEqual([])
  })
})
