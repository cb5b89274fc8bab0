import { type AutomationSettings, defaultAutomationSettings } from "@collector/core"
import { Config } from "effect"
import { integerAtLeast, millisAtLeast } from "./ConfigValues"

/** The automation scheduler from the environment (`AUTOMATION_*`), each with a default. */
export const automationConfigFromEnv: Config.Config<AutomationSettings> = Config.all({
  tickInterval: millisAtLeast("AUTOMATION_TICK_MS", 100, defaultAutomationSettings.tickInterval),
  scopesPerTick: integerAtLeast("AUTOMATION_SCOPES_PER_TICK", 1, defaultAutomationSettings.scopesPerTick),
  walletsPerRound: integerAtLeast("AUTOMATION_WALLETS_PER_ROUND", 1, defaultAutomationSettings.walletsPerRound),
  roundClaim: millisAtLeast("AUTOMATION_ROUND_CLAIM_MS", 1000, defaultAutomationSettings.roundClaim)
})
