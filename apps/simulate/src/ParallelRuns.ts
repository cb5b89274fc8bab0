import { failedRun, type RunOptions, type RunResult } from "@collector/simulation"
import { fork } from "node:child_process"
import { childVariable, type FromChild, type ToChild } from "./ChildRuns.js"
import { SeedQueue } from "./SeedQueue.js"

/**
 * Runs seeds `first` to `first + runs - 1` in `jobs` child processes of this script (each asks
 * for the next seed when it is free) and reports every result in seed order. A child that dies
 * counts as a violation of the seed it was running; another takes its place. One that dies before
 * it ran anything (it cannot start) fails the invocation. It resolves once every child has exited
 * (nothing is left running when the command exits, and its CPU time counts all of them).
 */
export const runInChildren = (first: number, runs: number, jobs: number, options: RunOptions, report: (result: RunResult) => void) =>
  new Promise<ReadonlyArray<RunResult>>((done, fail) => {
    const queue = new SeedQueue(first, runs, report)
    let live = 0
    const start = () => {
      live++
      const child = fork(process.argv[1]!, [], { env: { ...process.env, [childVariable]: JSON.stringify(options) }, stdio: ["ignore", "inherit", "inherit", "ipc"] })
      let running: number | undefined
      let stopped = false
      const give = () => {
        running = queue.take()
        stopped = running === undefined
        child.send((running === undefined ? { stop: true } : { seed: running }) satisfies ToChild)
      }
      child.on("message", (message: FromChild) => {
        if ("result" in message) {
          running = undefined
          queue.finish(message.result)
        }
        give()
      })
      child.on("exit", (code, signal) => {
        live--
        if (running === undefined) {
          if (!stopped) fail(new Error(`a simulation process exited (${signal ?? `code ${code}`}) before it ran a seed`))
          else if (live === 0 && queue.complete) done(queue.results)
          return
        }
        queue.finish(failedRun(running, `the process running it exited (${signal ?? `code ${code}`})`))
        start()
      })
    }
    for (let i = 0; i < jobs; i++) start()
  })
