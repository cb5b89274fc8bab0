import { Config, Duration } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"
import * as Setting from "../config/Setting.js"

export interface AutomationSettings {
  /** How often the scheduler looks for scopes whose interval has passed. */
  readonly tickInterval: Duration.Duration
  readonly scopesPerTick: number
  /** Most tasks one scope's round creates; the rest wait for the next round. */
  readonly walletsPerRound: number
  /**
   * How long a claimed round is held: a worker that dies in a round leaves it to be claimed again
   * after this, not after the scope's interval. Longer than any round takes.
   */
  readonly roundClaim: Duration.Duration
}

export const defaultAutomationSettings: AutomationSettings = {
  tickInterval: Duration.seconds(30),
  scopesPerTick: 50,
  walletsPerRound: 1000,
  roundClaim: Duration.minutes(10)
}

/** The `AUTOMATION_*` variables (docs/sweeps.md), each with the default above. */
export const automationSettings = {
  tickInterval: Setting.declare({
    name: "AUTOMATION_TICK_MS",
    default: defaultAutomationSettings.tickInterval,
    description: "How often the scheduler looks for due scopes (at least 100)."
  }, (name) => ConfigValue.millis(name, { min: 100 })),
  scopesPerTick: Setting.declare({
    name: "AUTOMATION_SCOPES_PER_TICK",
    default: defaultAutomationSettings.scopesPerTick,
    description: "Scopes claimed per look (at least 1)."
  }, (name) => ConfigValue.integer(name, { min: 1 })),
  walletsPerRound: Setting.declare({
    name: "AUTOMATION_WALLETS_PER_ROUND",
    default: defaultAutomationSettings.walletsPerRound,
    description: "Most tasks one round creates (at least 1)."
  }, (name) => ConfigValue.integer(name, { min: 1 })),
  roundClaim: Setting.declare({
    name: "AUTOMATION_ROUND_CLAIM_MS",
    default: defaultAutomationSettings.roundClaim,
    description: "How long a claimed round is held (at least 1000); a round whose worker died is claimed again after this. Longer than any round takes."
  }, (name) => ConfigValue.millis(name, { min: 1000 }))
}

export const automationConfig: Config.Config<AutomationSettings> = Config.all(automationSettings)
