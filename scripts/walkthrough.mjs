// Runs the README's "first hour" exactly as written, twice in a row on the same data, as a new
// operator trying it a second time would: each pass starts the block marked
// `<!-- walkthrough: service -->` in the background (as in a first terminal), runs every block
// marked `<!-- walkthrough -->` in order in one bash session (a second terminal), checks that the
// steps left nothing listening (the receiver stopped with `kill $RECEIVER`), then stops the
// service with Ctrl-C, which must exit 0. WALKTHROUGH_PASSES sets the number of passes (2).
// The last line is `walkthrough: ok (N passes, M s)` or `walkthrough: FAILED ...`.
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { connect } from "node:net"
import { resolve } from "node:path"

const root = resolve(import.meta.dirname, "..")
const readme = readFileSync(resolve(root, "README.md"), "utf8")
const blocks = [...readme.matchAll(/<!-- walkthrough(: service)? -->\s*\n```sh\n([\s\S]*?)\n```/g)].map((m) => ({ service: m[1] !== undefined, text: m[2] }))
const service = blocks.filter((b) => b.service)
const steps = blocks.filter((b) => !b.service)
const started = Date.now()
const passes = Number(process.env.WALKTHROUGH_PASSES ?? 2)
const fail = (why) => {
  console.log(`walkthrough: FAILED: ${why}`)
  process.exit(1)
}
if (service.length !== 1 || steps.length === 0) fail(`README.md has ${service.length} service blocks and ${steps.length} steps (want 1 and some)`)

const limitMs = Number(process.env.WALKTHROUGH_TIMEOUT_MS ?? 300_000)
// The webhook receiver's port (step 3): nothing may hold it once the steps are done.
const receiverPort = 8443

const listening = (port) =>
  new Promise((done) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      done(true)
    })
    socket.once("error", () => done(false))
  })

const stillListening = async (port, graceMs) => {
  const until = Date.now() + graceMs
  while (await listening(port)) {
    if (Date.now() >= until) return true
    await new Promise((r) => setTimeout(r, 200))
  }
  return false
}

// The process groups this run started (the service, the steps): a walkthrough stopped from outside
// (CI stopping after another step failed) takes them with it.
const groups = new Set()
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    for (const pid of groups) {
      try {
        process.kill(-pid, "SIGKILL")
      } catch {
        // already gone
      }
    }
    fail(`stopped by ${signal}`)
  })
}

const runPass = async (pass) => {
  const label = `pass ${pass} of ${passes}`
  console.log(`== walkthrough (${label}): ${service[0].text}`)
  // Its own process group, so that a failed run can stop npm and everything under it.
  const server = spawn("bash", ["-c", service[0].text], { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: true })
  groups.add(server.pid)
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
  const failWithLog = async (why) => {
    await stopServer()
    console.log(serverLog.slice(-4000))
    fail(`${label}: ${why}`)
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
  if (!(await waitForService())) await failWithLog("the service did not answer http://localhost:8080/healthz")

  const script = ["set -euo pipefail", "set -x", ...steps.map((s) => s.text)].join("\n")
  // Its own process group too, so that a failed or timed-out run stops what its steps started.
  const steps$ = spawn("bash", ["-c", script], { cwd: root, stdio: "inherit", detached: true })
  groups.add(steps$.pid)
  const timer = setTimeout(() => process.kill(-steps$.pid, "SIGKILL"), limitMs)
  const run = await new Promise((done) => steps$.once("exit", (status, signal) => done({ status, error: signal === "SIGKILL" })))
  clearTimeout(timer)
  // Checked before anything is cleaned up: the steps' own `kill $RECEIVER` must have freed the port.
  // kill only sends SIGTERM; the receiver closes its listener when it handles it, which on a busy
  // machine can be a moment after the steps' shell has exited, so the port gets a few seconds.
  const leftOver = run.status === 0 && (await stillListening(receiverPort, 10_000))
  try {
    process.kill(-steps$.pid, "SIGKILL")
  } catch {
    // nothing left
  }
  if (run.status !== 0) await failWithLog(run.error ? `the steps did not finish within ${limitMs} ms` : `a step exited ${run.status}`)
  if (leftOver) await failWithLog(`port ${receiverPort} is still held after the steps ended: kill $RECEIVER did not stop the receiver`)
  const exit = await stopServer()
  // A service line of each kind shows it ran and stopped as the README says.
  const ran = serverLog.includes("service started") && serverLog.includes("service stopped")
  if (exit.code !== 0 || !ran) {
    console.log(serverLog.slice(-4000))
    fail(`${label}: the service exited ${exit.code ?? exit.signal} on Ctrl-C${ran ? "" : " without its start and stop lines"}`)
  }
}

for (let pass = 1; pass <= passes; pass++) await runPass(pass)
console.log(`walkthrough: ok (${passes} passes, ${Math.round((Date.now() - started) / 1000)} s)`)
