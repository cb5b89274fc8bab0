import { Cause, Effect, Exit, Option } from "effect"
import type { ApiAnswer } from "../api/ApiAnswer.js"
import type { Trace } from "../Trace.js"

/** The tag of a typed failure, or what else ended the effect. */
export const failureTag = <E>(cause: Cause.Cause<E>): string =>
  Option.match(Cause.failureOption(cause), {
    onNone: () => (Cause.isInterruptedOnly(cause) ? "interrupted" : "died"),
    onSome: (e) => (typeof e === "object" && e !== null && "_tag" in e ? String(e._tag) : "untagged")
  })

/**
 * How the workload's actions ended. An expected failure (an ineligible sweep, a refused URL, a
 * chain control the world no longer allows) is recorded in the trace and the workload goes on;
 * any other failure of the service is a defect, reported as a violation.
 */
export class Outcomes {
  constructor(private readonly trace: Trace, private readonly defect: (message: string) => void) {}

  /** Records `exit` of action `label`; the value when it succeeded. */
  judge<A, E>(label: string, exit: Exit.Exit<A, E>, expected: ReadonlyArray<string>): Option.Option<A> {
    if (Exit.isSuccess(exit)) return Option.some(exit.value)
    const tag = failureTag(exit.cause)
    if (expected.includes(tag)) {
      this.trace.record(`${label} refused ${tag}`)
    } else {
      this.trace.record(`${label} failed ${tag}`)
      this.defect(`workload ${label} failed unexpectedly: ${Cause.pretty(exit.cause).split("\n")[0]}`)
    }
    return Option.none()
  }

  /** Records the API's `answer` to write `label`: an error code not in `expected` is a defect. */
  judgeAnswer(label: string, answer: ApiAnswer, expected: ReadonlyArray<string>): void {
    if (answer.status === 200) return
    const code = answer.errorCode ?? `status ${answer.status}`
    if (expected.includes(code)) return this.trace.record(`${label} refused ${code}`)
    this.trace.record(`${label} failed ${code}`)
    this.defect(`workload ${label} answered ${answer.text.slice(0, 300)}`)
  }

  /** Runs an action and judges how it ended. */
  attempt<A, E, R>(label: string, effect: Effect.Effect<A, E, R>, expected: ReadonlyArray<string>): Effect.Effect<Option.Option<A>, never, R> {
    return Effect.map(Effect.exit(effect), (exit) => this.judge(label, exit, expected))
  }
}
