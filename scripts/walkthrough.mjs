// Runs the README's "first hour" exactly as written: the block marked `<!-- walkthrough: service -->`
// starts in the background (as in a first terminal), every block marked `<!-- walkthrough -->`
// runs in order in one bash session (a second terminal), then the service gets SIGTERM and must
// exit 0. The last line is `walkthrough: ok (N s)` or `walkthrough: FAILED ...`.
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { resolve } from "node:path"

const root = resolve(import.meta.dirname, "..")
const readme = readFileSync(resolve(root, "README.md"), "utf8")
const blocks = [...readme.matchAll(/<!-- walkthrough(: service)? -->\s*\n```sh\n([\s\S]*?)\n```/g)].map((m) => ({ service: m[1] !== undefined, text: m[2] }))
const service = blocks.filter((b) => b.service)
const steps = blocks.filter((b) => !b.service)
const started = Date.now()
const fail = (why) => {
  console.log(`walkthrough: FAILED: ${why}`)
  process.exit(1)
}
if (service.length !== 1 || steps.length === 0) fail(`README.md has ${service.length} service blocks and ${steps.length} steps (want 1 and some)`)

const limitMs = Number(process.env.WALKTHROUGH_TIMEOUT_MS ?? 300_000)
console.log(`== walkthrough: ${service[0].text}`)
// Its own process group, so that a failed run can stop npm and everything under it.
const server = spawn("bash", ["-c", service[0].text], { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: true })
let serverLog = ""
server.stdout.on("data", (d) => (serverLog += d))
server.stderr.on("data", (d) => (serverLog += d))
const serverExit = new Promise((done) => server.once("exit", (code, signal) => done({ code, signal })))

const stopServer = async () => {
  try {
    // The README's first terminal is stopped with Ctrl-C: SIGINT to the foreground command, npm.
    process.kill(-server.pid, "SIGINT")
  } catch {
    return { code: server.exitCode, signal: server.signalCode }
  }
  const timer = setTimeout(() => process.kill(-server.pid, "SIGKILL"), 30_000)
  const exit = await serverExit
  clearTimeout(timer)
  return exit
}

const waitForService = async () => {
  const until = Date.now() + 120_000
  while (Date.now() < until) {
    if (server.exitCode !== null) return false
    const up = await fetch("http://localhost:8080/healthz").then((r) => r.ok, () => false)
    if (up) return true
    await new Promise((r) => setTimeout(r, 500))
  }
  return false
}

if (!(await waitForService())) {
  await stopServer()
  console.log(serverLog.slice(-4000))
  fail("the service did not answer http://localhost:8080/healthz")
}

const script = ["set -euo pipefail", "set -x", ...steps.map((s) => s.text)].join("\n")
// Its own process group too: what the steps start in the background (the receiver) is stopped
// with them, also when a step fails or the time runs out.
const steps$ = spawn("bash", ["-c", script], { cwd: root, stdio: "inherit", detached: true })
const timer = setTimeout(() => process.kill(-steps$.pid, "SIGKILL"), limitMs)
const run = await new Promise((done) => steps$.once("exit", (status, signal) => done({ status, error: signal === "SIGKILL" })))
clearTimeout(timer)
try {
  process.kill(-steps$.pid, "SIGKILL")
} catch {
  // nothing left
}
const exit = await stopServer()
// A service line of each kind shows it ran and stopped as the README says.
const ran = serverLog.includes("service started") && serverLog.includes("service stopped")
if (run.status !== 0) {
  console.log(serverLog.slice(-4000))
  fail(run.error ? `the steps did not finish within ${limitMs} ms` : `a step exited ${run.status}`)
}
if (exit.code !== 0 || !ran) {
  console.log(serverLog.slice(-4000))
  fail(`the service exited ${exit.code ?? exit.signal} on Ctrl-C${ran ? "" : " without its start and stop lines"}`)
}
console.log(`walkthrough: ok (${Math.round((Date.now() - started) / 1000)} s)`)
