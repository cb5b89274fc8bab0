// `npm run build` and the step before `npm start`, `npm run cli` and the other entry points:
// `tsc -b` with progress on stderr while it compiles, since a first build takes about a minute
// and said nothing. Nothing is printed when every project is up to date (a second start), so
// the CLI's `--json` output stays the only output. Compiler errors pass through as tsc prints them.
import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { relative, resolve } from "node:path"
import { createInterface } from "node:readline"

const root = resolve(import.meta.dirname, "..")
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc")
const started = Date.now()
const child = spawn(process.execPath, [tsc, "-b", "tsconfig.build.json", "--verbose"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] })

let projects = 0
let built = 0
let listing = false
createInterface({ input: child.stdout }).on("line", (line) => {
  if (line.includes("Projects in this build:")) return void (listing = true)
  if (listing && line.startsWith("    * ")) return void (line.trim() !== "* tsconfig.build.json" && projects++)
  listing = false
  const building = /Building project '(.+)'\.\.\./.exec(line)
  if (building !== null) {
    if (built === 0) process.stderr.write(`building ${projects} projects with tsc -b (about a minute the first time, seconds after a change)\n`)
    built++
    process.stderr.write(`  ${built}: ${relative(root, resolve(building[1], ".."))}\n`)
    return
  }
  // Anything else that is not one of --verbose's status lines is a compiler message.
  if (!/^\d{1,2}:\d{2}:\d{2}( [AP]M)? - /.test(line) && !/^\s*\*? ?$/.test(line) && !line.startsWith("    * ")) process.stdout.write(`${line}\n`)
})
child.on("exit", (code) => {
  if (built > 0 && code === 0) process.stderr.write(`built in ${Math.round((Date.now() - started) / 1000)} s\n`)
  process.exit(code ?? 1)
})
