// Packs every publishable package (scripts/pack.mjs), then tries each project under examples/ as a
// stranger would: a copy in a temporary folder outside the workspace, our packages installed from
// the tarballs (every @collector/* dependency, direct or transitive, is pointed at its tarball),
// everything else from the registry, then the example's own `npm test` on plain node.
// `npm run examples -- <name>...` tries only those; `--node <major>` runs them (npm included) on
// that Node.js major, fetched as npm's `node` package, to check the other supported major (the
// engines range is >=20 <23). The last line is `examples: N ok, M failed`.
import { spawnSync } from "node:child_process"
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { pack } from "./pack.mjs"

const root = resolve(import.meta.dirname, "..")
const examplesDir = join(root, "examples")
const keep = process.env.KEEP_EXAMPLES === "1"

const args = process.argv.slice(2)
const nodeAt = args.indexOf("--node")
const nodeMajor = nodeAt === -1 ? undefined : args[nodeAt + 1]
const chosen = nodeAt === -1 ? args : args.filter((_, index) => index !== nodeAt && index !== nodeAt + 1)
if (nodeMajor !== undefined && !/^\d+$/.test(nodeMajor)) {
  console.error(`examples: --node takes a major version, such as 22 (got ${nodeMajor})`)
  process.exit(2)
}
const examples = readdirSync(examplesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(examplesDir, entry.name, "package.json")))
  .map((entry) => entry.name)
  .filter((name) => chosen.length === 0 || chosen.includes(name))
  .sort()
if (chosen.length > 0 && examples.length !== chosen.length) {
  console.error(`examples: unknown example among ${chosen.join(", ")} (have: ${readdirSync(examplesDir).join(", ")})`)
  process.exit(2)
}

/** The folder of a Node.js binary of `major` (npm's `node` package, through npx), put first on PATH. */
const nodeBinDir = (major) => {
  const found = spawnSync("npx", ["-y", `node@${major}`, "-p", "process.execPath"], { encoding: "utf8" })
  if (found.status !== 0) {
    console.error(`examples: no Node.js ${major} from npx node@${major}: ${found.stderr.trim()}`)
    process.exit(2)
  }
  return dirname(found.stdout.trim())
}
const env = { ...process.env, npm_config_update_notifier: "false" }
if (nodeMajor !== undefined) env.PATH = `${nodeBinDir(nodeMajor)}:${env.PATH}`

const tarballs = Object.fromEntries(pack().map(({ name, file }) => [name, `file:${file}`]))

/** The example's manifest with our packages taken from the tarballs. */
const localManifest = (manifest) => {
  const pinned = (deps) => deps && Object.fromEntries(Object.entries(deps).map(([name, range]) => [name, tarballs[name] ?? range]))
  return { ...manifest, dependencies: pinned(manifest.dependencies), devDependencies: pinned(manifest.devDependencies), overrides: { ...manifest.overrides, ...tarballs } }
}

const run = (command, args, cwd) => {
  console.log(`$ ${command} ${args.join(" ")}`)
  const result = spawnSync(command, args, { cwd, stdio: "inherit", env })
  return result.status === 0
}

const results = []
for (const name of examples) {
  console.log(`\n== example ${name}`)
  const started = Date.now()
  const dir = mkdtempSync(join(tmpdir(), `collector-example-${name}-`))
  // mkdtemp makes the folder private; an embedded PostgreSQL started by root runs as another user,
  // which must be able to reach its own programs under node_modules.
  chmodSync(dir, 0o755)
  cpSync(join(examplesDir, name), dir, { recursive: true, filter: (source) => !/node_modules|[/\\]dist$/.test(source) })
  const manifestFile = join(dir, "package.json")
  writeFileSync(manifestFile, JSON.stringify(localManifest(JSON.parse(readFileSync(manifestFile, "utf8"))), null, 2) + "\n")
  const ok = run("node", ["--version"], dir) && run("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock"], dir) && run("npm", ["test"], dir)
  const seconds = ((Date.now() - started) / 1000).toFixed(0)
  console.log(`== example ${name}: ${ok ? "ok" : "FAILED"} (${seconds} s)${keep ? ` in ${dir}` : ""}`)
  results.push(ok)
  if (!keep) rmSync(dir, { recursive: true, force: true })
}

const okCount = results.filter(Boolean).length
console.log(`examples: ${okCount} ok, ${results.length - okCount} failed`)
process.exit(results.length - okCount === 0 && results.length > 0 ? 0 : 1)
