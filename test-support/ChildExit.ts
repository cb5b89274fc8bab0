import { Effect } from "effect"
import type { ChildProcess } from "node:child_process"

/** Ends when the child process has exited (at once if it already has), with its exit code. */
export const exited = (child: ChildProcess) =>
  Effect.async<number | null>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.succeed(child.exitCode))
    child.once("exit", (code) => resume(Effect.succeed(code)))
  })
