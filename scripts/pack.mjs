// Builds every package and writes the tarball of each publishable one (not `private`) to packed/,
// the folder `npm run examples` installs from. Prints one line per tarball.
import { execFileSync } from "node:child_process"
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { join, resolve } from "node:path"

const root = resolve(import.meta.dirname, "..")
export const packedDir = join(root, "packed")

const publishable = () =>
  readdirSync(join(root, "packages"))
    .map((name) => ({ dir: `packages/${name}`, manifest: JSON.parse(readFileSync(join(root, "packages", name, "package.json"), "utf8")) }))
    .filter(({ manifest }) => manifest.private !== true)

export const pack = () => {
  execFileSync("npx", ["tsc", "-b", "tsconfig.build.json"], { cwd: root, stdio: "inherit" })
  rmSync(packedDir, { recursive: true, force: true })
  mkdirSync(packedDir, { recursive: true })
  const packages = publishable()
  // Each tarball carries the licence; the copies are build output (ignored by git).
  for (const { dir } of packages) copyFileSync(join(root, "LICENSE"), join(root, dir, "LICENSE"))
  const output = execFileSync(
    "npm",
    ["pack", "--json", "--pack-destination", packedDir, ...packages.flatMap(({ dir }) => ["--workspace", dir])],
    { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }
  )
  const tarballs = JSON.parse(output).map((entry) => ({ name: entry.name, file: join(packedDir, entry.filename), files: entry.entryCount, bytes: entry.size }))
  if (tarballs.length !== packages.length) throw new Error(`npm pack wrote ${tarballs.length} tarballs for ${packages.length} packages`)
  return tarballs
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const { name, file, files, bytes } of pack()) console.log(`${name}  ${files} files, ${(bytes / 1024).toFixed(0)} kB  ${file}`)
}
