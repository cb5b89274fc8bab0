import { type ChildProcess, spawn } from "node:child_process"

export { freePort } from "@collector/postgres/testing/FreePort"

const children: Array<ChildProcess> = []
export const stopAll = () => children.forEach((c) => c.kill("SIGTERM"))
process.on("exit", stopAll)

/** Starts a TypeScript entry point of the repository as its own process (its own CPU share). */
export const startTs = (entry: string, env: Record<string, string>, args: Array<string> = []) => {
  const child = spawn(process.execPath, ["--import", "tsx", entry, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"]
  })
  children.push(child)
  return child
}

export const runTs = (entry: string, env: Record<string, string>, args: Array<string>) =>
  new Promise<string>((done, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", entry, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] })
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    child.on("exit", (code) => (code === 0 ? done(out) : fail(new Error(`${entry} ${args.join(" ")} exited ${code}`))))
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
