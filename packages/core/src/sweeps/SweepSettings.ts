import { Config, Context, Duration, Layer } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"
import * as Setting from "../config/Setting.js"

export interface SweepSettingsShape {
  /**
   * How long a new task may stay in preparation (`pending`, then `ready`) before the sweeper
   * gives up and cancels it: `prepareBy` = creation time + this.
   */
  readonly preparationLimit: Duration.Duration
}

export const defaultSweepSettings: SweepSettingsShape = { preparationLimit: Duration.hours(24) }

/** `SWEEP_PREPARATION_HOURS`: whole hours from 1 to 720 (30 days), default 24. */
export const sweepSettings = {
  preparationLimit: Setting.declare({
    name: "SWEEP_PREPARATION_HOURS",
    default: defaultSweepSettings.preparationLimit,
    shown: `\`${Duration.toHours(defaultSweepSettings.preparationLimit)}\``,
    description: "Preparation's time limit in hours (1 to 720); read by the API and the worker."
  }, (name) => ConfigValue.duration(name, "hours", { min: 1, max: 720 }))
}

export const sweepSettingsConfig: Config.Config<SweepSettingsShape> = Config.all(sweepSettings)

/** The sweep settings shared by the sweep operations (API and automation) and the sweeper. */
export class SweepSettings extends Context.Tag("@collector/core/SweepSettings")<SweepSettings, SweepSettingsShape>() {
  /** `settings` over the defaults. */
  static readonly layer = (settings: Partial<SweepSettingsShape> = {}) => Layer.succeed(SweepSettings, { ...defaultSweepSettings, ...settings })
  /** The settings of `config` (by default SWEEP_PREPARATION_HOURS). */
  static readonly layerConfig = (config: Config.Config<SweepSettingsShape> = sweepSettingsConfig) => Layer.effect(SweepSettings, config)
}
