import { Effect } from "effect"
import type { ChildProcess } from "node:child_process"

/** Ends when the child process has exited (at once if it already has), with its exit code. */
export const exited = (child: ChildProcess) =>
  Effect.async<number | null>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.succeed(child.exitCode))
    child.once("exit", (code) => resume(Effect.succeed(code)))
  })

/** Asks the child to stop (SIGTERM) and resolves once it has exited (at once if it already has). */
export const stopped = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done()
    child.once("exit", () => done())
    child.kill("SIGTERM")
  })
