import { Config, Context, Duration, Layer } from "effect"

export interface SweepSettingsShape {
  /**
   * How long a new task may stay in preparation (`pending`, then `ready`) before the sweeper
   * gives up and cancels it: `prepareBy` = creation time + this.
   */
  readonly preparationLimit: Duration.Duration
}

const defaults: SweepSettingsShape = { preparationLimit: Duration.hours(24) }

/** `SWEEP_PREPARATION_HOURS`: whole hours from 1 to 720 (30 days), default 24. */
export const sweepSettingsFromEnv: Config.Config<SweepSettingsShape> = Config.integer("SWEEP_PREPARATION_HOURS").pipe(
  Config.validate({
    message: "SWEEP_PREPARATION_HOURS must be a whole number of hours from 1 to 720",
    validation: (hours) => hours >= 1 && hours <= 720
  }),
  Config.withDefault(24),
  Config.map((hours) => ({ preparationLimit: Duration.hours(hours) }))
)

/**
 * The sweep settings shared by the operations and the sweeper. A reference with the defaults,
 * so a layer that never provides it still gets 24 h; apps provide `layerFromEnv`.
 */
export class SweepSettings extends Context.Reference<SweepSettings>()("@collector/core/SweepSettings", {
  defaultValue: () => defaults
}) {
  static readonly defaults = defaults
  static readonly layer = (overrides: Partial<SweepSettingsShape> = {}) => Layer.succeed(SweepSettings, { ...defaults, ...overrides })
  static readonly layerFromEnv = Layer.effect(SweepSettings, sweepSettingsFromEnv)
}
