import { type ChildProcess, spawn } from "node:child_process"
import { connect } from "node:net"
import { resolve } from "node:path"
import { bundleOf } from "./AppBundles.js"

// Not from @collector/postgres/testing: benchmarks import this file, and that entry loads vitest.
export { freePort } from "@collector/postgres"

/** Node flags that run TypeScript sources: tsx, and our packages resolved to their sources. */
export const sourceArgs = ["--conditions=@collector/source", "--import", "tsx"]

export const repositoryRoot = resolve(import.meta.dirname, "..")

const children: Array<ChildProcess> = []
export const stopAll = () => children.forEach((c) => c.kill("SIGTERM"))
process.on("exit", stopAll)

/**
 * The environment of a child: ours, minus what the test decides, plus its own settings. The
 * operator's endpoints are off unless the test names a port: every process would otherwise
 * take 9464, and a run starts many at once.
 */
const childEnv = (env: Record<string, string | undefined>) => {
  const merged: Record<string, string | undefined> = { ...process.env, OPERATOR_PORT: "0", ...env }
  for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key]
  return merged as NodeJS.ProcessEnv
}

/**
 * How to start an entry point: under vitest an app runs from the bundle the run built from the
 * current sources (test-support/globalSetup.ts); anything else, and every entry outside vitest
 * (benchmarks), through tsx.
 */
const entryArgs = (entry: string) =>
  process.env.VITEST !== undefined && entry.startsWith("apps/") && entry.endsWith("/src/main.ts")
    ? [bundleOf(entry)]
    : [...sourceArgs, resolve(repositoryRoot, entry)]

/**
 * Starts a TypeScript entry point of the repository as its own process (its own CPU share). Its
 * standard output is dropped, piped, or written to an open file descriptor.
 */
export const startTs = (
  entry: string,
  env: Record<string, string | undefined>,
  options: { readonly output?: "ignore" | "pipe" | number; readonly nodeArgs?: ReadonlyArray<string> } = {}
) => {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entryArgs(entry)], {
    env: childEnv(env),
    stdio: ["ignore", options.output ?? "ignore", options.output === "pipe" ? "pipe" : "inherit"]
  })
  children.push(child)
  return child
}

export interface Finished {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs a TypeScript entry point to the end and returns its exit code and output. */
export const runTs = (entry: string, env: Record<string, string | undefined>, args: ReadonlyArray<string> = []) =>
  new Promise<Finished>((done) => {
    const child = spawn(process.execPath, [...entryArgs(entry), ...args], {
      env: childEnv(env),
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d) => (stdout += d))
    child.stderr.on("data", (d) => (stderr += d))
    child.on("exit", (code) => done({ code, stdout, stderr }))
  })

/** Whether something accepts connections on a loopback port. */
export const answers = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => (socket.destroy(), done(true)))
    socket.once("error", () => done(false))
  })

export const waitForHttp = async (url: string, timeoutMs = 60_000) => {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    try {
      const res = await fetch(url)
      if (res.status < 500) return
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${url} did not come up`)
}
