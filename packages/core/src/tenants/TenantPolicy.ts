import { Effect, Schema } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"
import * as Setting from "../config/Setting.js"
import { allConfirmationRules, type ConfirmationRule } from "../settings/ConfirmationRule.js"

/** A tenant setting the platform does not allow: the reason says what would be accepted. */
export class TenantRejected extends Schema.TaggedError<TenantRejected>()("TenantRejected", {
  reason: Schema.String
}) {
  override get message() {
    return this.reason
  }
}

export const tenantNameMaxLength = 200

/** The confirmation rules this platform offers tenants (`CONFIRMATION_RULES`, default all). */
export const enabledConfirmationRules: Setting.Setting<ReadonlyArray<ConfirmationRule>> = Setting.declare({
  name: "CONFIRMATION_RULES",
  default: allConfirmationRules,
  shown: `all ${allConfirmationRules.length}`,
  description:
    `Confirmation rules the platform offers (\`${allConfirmationRules.join(",")}\`); the core refuses any other (\`TenantRejected\`), whichever way the setting comes in (the CLI's \`set-confirmation\`, an embedder's \`TenantAdmin\`).`
}, (name) => ConfigValue.listOf(name, allConfirmationRules))

/** A tenant's name as stored: trimmed, not empty, at most `tenantNameMaxLength` characters. */
export const tenantName = (name: string): Effect.Effect<string, TenantRejected> => {
  const trimmed = name.trim()
  if (trimmed === "") return Effect.fail(new TenantRejected({ reason: "a tenant's name must not be empty" }))
  if (trimmed.length > tenantNameMaxLength) {
    return Effect.fail(new TenantRejected({ reason: `a tenant's name must be at most ${tenantNameMaxLength} characters` }))
  }
  return Effect.succeed(trimmed)
}

/** `rule` if it is a confirmation rule and the platform enables it. */
export const enabledConfirmationRule = (rule: string, enabled: ReadonlyArray<ConfirmationRule>): Effect.Effect<ConfirmationRule, TenantRejected> =>
  (enabled as ReadonlyArray<string>).includes(rule)
    ? Effect.succeed(rule as ConfirmationRule)
    : Effect.fail(new TenantRejected({ reason: `the confirmation rule must be one of the enabled rules: ${enabled.join(", ")}` }))
