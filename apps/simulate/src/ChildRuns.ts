import { failedRun, type RunOptions, type RunResult, runOne } from "@collector/simulation"
import { Effect } from "effect"

/** What the parent sends a child: a seed to run, or that there are no more. */
export type ToChild = { readonly seed: number } | { readonly stop: true }
/** What a child sends back: that it is ready for a seed, or a seed's result. */
export type FromChild = { readonly ready: true } | { readonly result: RunResult }

/** Marks a process started by `runInChildren`; it carries the run options. */
export const childVariable = "SIMULATE_CHILD_OPTIONS"

const send = (message: FromChild) => process.send!(message)

/** A child's life: it runs the seeds its parent sends, one at a time, until told to stop. */
export const serveParent = (options: RunOptions) => {
  process.on("message", (message: ToChild) => {
    if ("stop" in message) {
      process.disconnect()
      return
    }
    Effect.runPromise(runOne(message.seed, options)).then(
      (result) => send({ result }),
      (error) => send({ result: failedRun(message.seed, `the run failed: ${String(error)}`) })
    )
  })
  send({ ready: true })
}
