import { Schema } from "effect"

/**
 * An amount as the contract carries it: a non-negative integer in base units, written as decimal
 * text so that it never passes through a JS number (the core holds it as a bigint).
 */
export const Amount = Schema.String.pipe(Schema.pattern(/^(0|[1-9][0-9]*)$/), Schema.annotations({ description: "Integer string in the smallest unit (6 decimals)." }))
