import { parse } from "lossless-json"

/**
 * JSON.parse for provider replies with every number kept as the text it was written as. Money
 * must never pass through a double: `"pay_amount": 8.43276` (TRX) or an int64 of SUN beyond 2^53
 * would be rounded by `JSON.parse`. The wire schemas read the texts exactly (see Sun).
 */
const literalText = (literal: string): string => literal

// As JSON.parse does; the library would throw on a key repeated with another value.
const lastWins = ({ newValue }: { readonly newValue: unknown }) => newValue

/** Parses JSON text; every number comes back as its literal text. Throws on invalid JSON. */
export const parseRawJson = (text: string): unknown => parse(text, null, { parseNumber: literalText, onDuplicateKey: lastWins })
