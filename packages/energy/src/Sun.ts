import { Chain } from "@collector/core"
import { Option, ParseResult, Schema } from "effect"

/**
 * Money as bigint SUN (1 TRX = 1,000,000 SUN), read exactly from the text a provider wrote:
 * integers of SUN, or TRX with up to six decimals converted by string arithmetic. Never through
 * a JS number.
 */

/** A non-negative integer written in decimal digits. */
export const integerFromText = (text: string): Option.Option<bigint> => (/^\d{1,30}$/.test(text) ? Option.some(BigInt(text)) : Option.none())

const fromText = (what: string, read: (text: string) => Option.Option<bigint>) =>
  Schema.transformOrFail(Schema.String, Schema.BigIntFromSelf, {
    strict: true,
    decode: (text, _, ast) =>
      Option.match(read(text), {
        onNone: () => ParseResult.fail(new ParseResult.Type(ast, text, `expected ${what}, got ${JSON.stringify(text)}`)),
        onSome: ParseResult.succeed
      }),
    encode: (value) => ParseResult.succeed(value.toString())
  })

/** An integer (energy, SUN, a timestamp) written as digits, in a JSON string or as a number kept as text by LosslessJson. */
export const DigitsBigInt = fromText("a non-negative integer", integerFromText)

/** A TRX amount with up to six decimals, as SUN. */
export const TrxAsSun = fromText("a TRX amount with at most six decimals", Chain.sunFromTrx)
