import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { execFileSync, spawn } from "node:child_process"
import { rmSync } from "node:fs"
import { resolve } from "node:path"
import { answers, freePort, repositoryRoot, waitForHttp } from "../../../test-support/Processes.js"

/** Every process below `pid`, found through `ps` (npm, the shell it may use, node, PostgreSQL). */
const descendants = (pid: number): ReadonlyArray<number> => {
  const table = execFileSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" }).trim().split("\n").map((line) => line.trim().split(/\s+/).map(Number))
  const below = (parent: number): ReadonlyArray<number> => table.filter(([, ppid]) => ppid === parent).flatMap(([child]) => [child!, ...below(child!)])
  return below(pid)
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const logLines = (stdout: string) =>
  stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as { message: string; annotations?: Record<string, unknown> })

/**
 * Starts a command of the README on embedded defaults in a throw-away data directory, signals the
 * process the operator would signal, and checks that everything it started is gone.
 */
const startAndSignal = (
  command: string,
  args: ReadonlyArray<string>,
  signal: NodeJS.Signals,
  options: { readonly toGroup?: boolean } = {}
) =>
  Effect.promise(async () => {
    const dataDir = resolve(repositoryRoot, ".data", `shutdown-test-${process.pid}-${signal}${options.toGroup === true ? "-group" : ""}`)
    rmSync(dataDir, { recursive: true, force: true })
    const ports = { PORT: await freePort(), TRON_SIM_PORT: await freePort(), EMBEDDED_PG_PORT: await freePort(), OPERATOR_PORT: await freePort() }
    const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, LOG_FORMAT: "json", DATABASE_URL: undefined, MASTER_KEY: undefined }
    for (const [name, port] of Object.entries(ports)) env[name] = String(port)
    for (const name of Object.keys(env)) if (env[name] === undefined) delete env[name]
    const child = spawn(command, args, { cwd: repositoryRoot, env, stdio: ["ignore", "pipe", "pipe"], detached: options.toGroup === true })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d) => (stdout += d))
    child.stderr.on("data", (d) => (stderr += d))
    const exit = new Promise<number | null>((done) => child.once("exit", (code) => done(code)))
    let started: ReadonlyArray<number> = []
    try {
      await waitForHttp(`http://127.0.0.1:${ports.PORT}/healthz`, 90_000)
      started = descendants(child.pid!)
      for (const port of Object.values(ports)) expect(await answers(port), `port ${port} open while running`).toBe(true)
      if (options.toGroup === true) {
        // Ctrl-C in a terminal: every process of the foreground group gets the signal, and npm
        // passes its own on to node; so node is signalled twice, the second time while stopping.
        // A second Ctrl-C soon after: a fast stop may have ended the group by then (ESRCH), which
        // the exit code and the log lines below still judge.
        process.kill(-child.pid!, signal)
        await new Promise((r) => setTimeout(r, 20))
        try {
          process.kill(-child.pid!, signal)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error
        }
      } else child.kill(signal)
      const code = await exit
      return { code, started, ports, stdout, stderr }
    } finally {
      // A failed check must not leave a server behind for the rest of the run.
      for (const pid of [child.pid!, ...started]) if (alive(pid)) process.kill(pid, "SIGKILL")
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

describe("shutdown", () => {
  it.live("SIGTERM to `npm start` (npm itself) stops every process it started, closes every port and exits 0", () =>
    Effect.gen(function*() {
      const run = yield* startAndSignal("npm", ["start"], "SIGTERM")
      expect(run.code, run.stderr).toBe(0)
      // npm's shell is replaced by node (`exec`), so node and the embedded PostgreSQL are below npm.
      expect(run.started.length).toBeGreaterThanOrEqual(2)
      for (const pid of run.started) expect(alive(pid), `process ${pid} left running`).toBe(false)
      for (const port of Object.values(run.ports)) expect(yield* Effect.promise(() => answers(port)), `port ${port} left open`).toBe(false)
      const messages = logLines(run.stdout).map((line) => line.message)
      expect(messages).toEqual(expect.arrayContaining(["service started", "service stopping", "service stopped"]))
      expect(messages.indexOf("service stopped")).toBe(messages.length - 1)
    }), { timeout: 180_000 })

  it.live("Ctrl-C on `npm start` (SIGINT to its process group, twice): the same clean stop and exit 0", () =>
    Effect.gen(function*() {
      const run = yield* startAndSignal("npm", ["start"], "SIGINT", { toGroup: true })
      expect(run.code, run.stderr).toBe(0)
      for (const pid of run.started) expect(alive(pid), `process ${pid} left running`).toBe(false)
      const messages = logLines(run.stdout).map((line) => line.message)
      expect(messages.filter((m) => m === "service stopping")).toHaveLength(1)
      expect(messages.indexOf("service stopped")).toBe(messages.length - 1)
    }), { timeout: 180_000 })

  it.live("SIGINT to the production command does the same, and the start line names version, ports, networks and storage, no secret", () =>
    Effect.gen(function*() {
      const run = yield* startAndSignal(process.execPath, ["apps/service/dist/main.js"], "SIGINT")
      expect(run.code, run.stderr).toBe(0)
      for (const pid of run.started) expect(alive(pid), `process ${pid} left running`).toBe(false)
      for (const port of Object.values(run.ports)) expect(yield* Effect.promise(() => answers(port)), `port ${port} left open`).toBe(false)
      const lines = logLines(run.stdout)
      const start = lines.find((line) => line.message === "service started")!
      expect(start.annotations).toMatchObject({
        version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
        api_port: run.ports.PORT,
        networks: "nile",
        nodes: `nile=simulated at http://127.0.0.1:${run.ports.TRON_SIM_PORT}`,
        storage: expect.stringContaining(`on 127.0.0.1:${run.ports.EMBEDDED_PG_PORT}`)
      })
      // JSON lines carry no empty spans and no fiber ids.
      for (const line of lines) expect(Object.keys(line)).not.toEqual(expect.arrayContaining(["fiberId"]))
      expect(run.stdout).not.toContain('"spans":{}')
    }), { timeout: 180_000 })
})
