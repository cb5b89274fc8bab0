import { isInteger, parse } from "lossless-json"

/**
 * JSON.parse for node replies without losing integer precision. java-tron prints int64 fields
 * (balances, amounts, fee limits) as bare JSON numbers, and `JSON.parse` rounds every one above
 * 2^53 to the nearest double: a balance of 99999999999000001 sun would silently become
 * 99999999999000000. Integer literals a double cannot hold exactly therefore come back as their
 * digits; the response schemas (NodeInt) accept numbers and digit strings alike. Fractions and
 * exponents come back as JSON.parse reads them: no field the adapter reads is written so, and
 * NodeInt refuses any value that is not an exact integer.
 *
 * The `lossless-json` library costs about 2.4 times what the hand-written scan plus `JSON.parse`
 * it replaced cost on a block header, and 3.5 to 7 times on a block with 300 transactions
 * (bench/json-parse.ts, docs/benchmarks.md): a few microseconds on the headers and other small
 * replies read through here, far too much for the receipts of a whole block, which TransferLogs
 * reads with plain `JSON.parse`.
 */
const exactNumber = (literal: string): number | string => {
  const value = Number(literal)
  return Number.isSafeInteger(value) || !isInteger(literal) ? value : literal
}

// As JSON.parse does; the library would throw on a key repeated with another value.
const lastWins = ({ newValue }: { readonly newValue: unknown }) => newValue

/** Parses JSON text; integers that a double cannot hold exactly come back as digit strings. Throws on invalid JSON. */
export const parseLosslessJson = (text: string): unknown => parse(text, null, { parseNumber: exactNumber, onDuplicateKey: lastWins })
