import { Schema } from "effect"

export const ConfirmationRule = Schema.Literal("block_1", "block_3", "block_6", "block_12", "solidified")
export type ConfirmationRule = typeof ConfirmationRule.Type

export const allConfirmationRules: ReadonlyArray<ConfirmationRule> = ConfirmationRule.literals
export const defaultConfirmationRule: ConfirmationRule = "solidified"
