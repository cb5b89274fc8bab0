// Runs each package README's install commands as written, in a fresh temporary folder, with our
// packages taken from `npm run pack`'s tarballs (they are not on the registry: each `@collector/x`
// word of a command becomes the path of its tarball, nothing else changes), then loads the package
// as its README's reader would: `import` always, `require` too when its exports offer it.
// `npm run readme-installs -- <package-dir>...` tries only those; `--no-pack` reuses packed/.
// The last line is `readme installs: N ok, M failed`.
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { pack, packedDir } from "./pack.mjs"

const root = resolve(import.meta.dirname, "..")
const args = process.argv.slice(2)
const chosen = args.filter((arg) => !arg.startsWith("--"))
if (!args.includes("--no-pack") || !existsSync(packedDir)) pack()

const tarballOf = (name) => {
  const file = join(packedDir, `${name.slice(1).replace("/", "-")}-0.1.0.tgz`)
  if (!existsSync(file)) throw new Error(`no tarball for ${name} in ${packedDir}`)
  return file
}

/** The `npm install` commands of the README's shell blocks, continuation lines joined. */
const installCommands = (readme) =>
  [...readme.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)]
    .flatMap(([, block]) => block.replace(/\\\n\s*/g, "").split("\n"))
    .map((line) => line.trim())
    .filter((line) => line.startsWith("npm install "))

const run = (command, cwd) => {
  console.log(`$ ${command}`)
  const result = spawnSync("bash", ["-c", command], { cwd, stdio: "inherit", env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" } })
  return result.status === 0
}

const packages = readdirSync(join(root, "packages"))
  .filter((dir) => chosen.length === 0 || chosen.includes(dir))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8")) }))
  .filter(({ manifest }) => manifest.private !== true)

const results = []
for (const { dir, manifest } of packages) {
  const commands = installCommands(readFileSync(join(root, "packages", dir, "README.md"), "utf8"))
  console.log(`\n== ${manifest.name}: ${commands.length} install command(s)`)
  const folder = mkdtempSync(join(tmpdir(), `collector-readme-${dir}-`))
  const main = manifest.exports["."]
  const loads = [`node --input-type=module -e 'await import("${manifest.name}")'`]
  if (typeof main === "object" && "require" in main) loads.push(`node --input-type=commonjs -e 'require("${manifest.name}")'`)
  const ok = commands.length > 0 &&
    commands.every((command) => run(command.replace(/@collector\/[a-z0-9-]+/g, tarballOf), folder)) &&
    loads.every((load) => run(load, folder))
  console.log(`== ${manifest.name}: ${ok ? "ok" : "FAILED"}`)
  results.push(ok)
  rmSync(folder, { recursive: true, force: true })
}
const okCount = results.filter(Boolean).length
console.log(`readme installs: ${okCount} ok, ${results.length - okCount} failed`)
process.exit(okCount === results.length && results.length > 0 ? 0 : 1)
