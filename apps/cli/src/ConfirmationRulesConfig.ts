import { allConfirmationRules, type ConfirmationRule } from "@collector/core"
import { Config } from "effect"

/** The confirmation rules this platform offers tenants (`CONFIRMATION_RULES`, default all). */
export const EnabledConfirmationRules = Config.string("CONFIRMATION_RULES").pipe(
  Config.map((text) => text.split(",").map((s) => s.trim()).filter((s) => s !== "")),
  Config.validate({
    message: `CONFIRMATION_RULES must list some of ${allConfirmationRules.join(", ")}`,
    validation: (rules): rules is Array<ConfirmationRule> =>
      rules.length > 0 && rules.every((r) => (allConfirmationRules as ReadonlyArray<string>).includes(r))
  }),
  Config.map((rules) => rules as ReadonlyArray<ConfirmationRule>),
  Config.withDefault(allConfirmationRules)
)
