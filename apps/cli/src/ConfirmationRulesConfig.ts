import { allConfirmationRules, ConfigValue } from "@collector/core"
import { Config } from "effect"

/** The confirmation rules this platform offers tenants (`CONFIRMATION_RULES`, default all). */
export const EnabledConfirmationRules = ConfigValue.listOf("CONFIRMATION_RULES", allConfirmationRules).pipe(Config.withDefault(allConfirmationRules))
