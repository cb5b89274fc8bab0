import { Config, Duration } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"

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
export const automationConfig: Config.Config<AutomationSettings> = Config.all({
  tickInterval: ConfigValue.millis("AUTOMATION_TICK_MS", { min: 100 }).pipe(Config.withDefault(defaultAutomationSettings.tickInterval)),
  scopesPerTick: ConfigValue.integer("AUTOMATION_SCOPES_PER_TICK", { min: 1 }).pipe(Config.withDefault(defaultAutomationSettings.scopesPerTick)),
  walletsPerRound: ConfigValue.integer("AUTOMATION_WALLETS_PER_ROUND", { min: 1 }).pipe(Config.withDefault(defaultAutomationSettings.walletsPerRound)),
  roundClaim: ConfigValue.millis("AUTOMATION_ROUND_CLAIM_MS", { min: 1000 }).pipe(Config.withDefault(defaultAutomationSettings.roundClaim))
})
