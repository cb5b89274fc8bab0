import { isInteger, parse as parseWith } from "lossless-json"

/**
 * JSON.parse for replies that carry money or int64 fields, which `JSON.parse` would round through
 * a double: `"pay_amount": 8.43276` (TRX) becomes the nearest double, and a balance of
 * 99999999999000001 sun silently becomes 99999999999000000. What happens to a number literal is
 * the caller's explicit choice, because the wire schemas downstream read one form or the other:
 *
 * - `"allAsText"`: every number comes back as the text it was written as (energy providers, whose
 *   schemas read SUN and TRX amounts exactly from text).
 * - `"unsafeIntegersAsText"`: integers a double cannot hold exactly come back as their digits;
 *   every other number as `JSON.parse` reads it (the TRON node, whose int64 schemas accept numbers
 *   and digit strings alike and refuse anything that is not an exact integer).
 *
 * The `lossless-json` library costs about 2.4 times what `JSON.parse` costs on a block header and
 * 3.5 to 7 times on a block with 300 transactions (bench/json-parse.ts, docs/benchmarks.md): use it
 * for small replies, not for the receipts of a whole block.
 */
export type NumberPolicy = "allAsText" | "unsafeIntegersAsText"

const literalText = (literal: string): string => literal

const unsafeIntegersAsText = (literal: string): number | string => {
  const value = Number(literal)
  return Number.isSafeInteger(value) || !isInteger(literal) ? value : literal
}

const numberParsers: Record<NumberPolicy, (literal: string) => unknown> = {
  allAsText: literalText,
  unsafeIntegersAsText
}

// As JSON.parse does; the library would throw on a key repeated with another value.
const lastWins = ({ newValue }: { readonly newValue: unknown }) => newValue

/** Parses JSON text, reading number literals as `numbers` says. Throws on invalid JSON. */
export const parse = (text: string, numbers: NumberPolicy): unknown =>
  parseWith(text, null, { parseNumber: numberParsers[numbers], onDuplicateKey: lastWins })
