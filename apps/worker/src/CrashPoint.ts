import { type Engine, Setting } from "@collector/core"
import { Config, Effect, Option } from "effect"

/**
 * Fault injection for the crash tests: with `SWEEP_CRASH_AT=<point>` (a sweeper checkpoint such
 * as `before:signed/ready`, `automation:claimed`, or the notifier's `delivery:claimed`: attempts
 * started by a claim, none marked sending yet) the worker kills itself with SIGKILL the first
 * time it gets there, exactly as a power cut would. Unset in every real deployment.
 */
export const crashAtSetting = Setting.declare({
  name: "SWEEP_CRASH_AT",
  description:
    "Test only: the worker kills itself (SIGKILL) the first time it reaches this checkpoint (`before:signed/ready`, `automation:claimed`, `delivery:claimed`, ...). Read by `apps/worker` alone and passed to the engine as its checkpoint."
}, (name) => Config.option(Config.string(name)))

export const crashPointConfig: Config.Config<Engine.Checkpoint | undefined> = crashAtSetting.pipe(
  Config.map(Option.match({
    onNone: () => undefined,
    onSome: (target) => (reached: string) =>
      reached === target
        ? Effect.zipRight(Effect.logWarning(`SWEEP_CRASH_AT reached ${reached}: killing this worker`), Effect.sync(() => process.kill(process.pid, "SIGKILL")))
        : Effect.void
  }))
)
