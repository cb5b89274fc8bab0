import { type AutomationSettings, defaultAutomationSettings } from "@collector/core"
import { Config, Duration } from "effect"

const integerAtLeast = (name: string, minimum: number, fallback: number, unit = "") =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be an integer of at least ${minimum}${unit}`, validation: (n) => n >= minimum }),
    Config.withDefault(fallback)
  )

/** The automation scheduler from the environment (`AUTOMATION_*`), each with a default. */
export const automationConfigFromEnv: Config.Config<AutomationSettings> = Config.all({
  tickInterval: Config.map(
    integerAtLeast("AUTOMATION_TICK_MS", 100, Duration.toMillis(defaultAutomationSettings.tickInterval), " (milliseconds)"),
    Duration.millis
  ),
  scopesPerTick: integerAtLeast("AUTOMATION_SCOPES_PER_TICK", 1, defaultAutomationSettings.scopesPerTick),
  walletsPerRound: integerAtLeast("AUTOMATION_WALLETS_PER_ROUND", 1, defaultAutomationSettings.walletsPerRound)
})
