/**
 * JSON.parse for node replies without losing integer precision. java-tron prints int64 fields
 * (balances, amounts, fee limits) as bare JSON numbers, and `JSON.parse` rounds every one above
 * 2^53 to the nearest double: a balance of 99999999999000001 sun would silently become
 * 99999999999000000. Integer literals too long to be exact are therefore turned into JSON strings
 * before parsing; the response schemas accept numbers and digit strings alike.
 */

/** 15 digits always fit in a double exactly (2^53 has 16). */
const maxExactDigits = 15

const isDigit = (code: number) => code >= 48 && code <= 57

/** Quotes long integer literals outside strings; everything else is copied as is. */
const quoteLongIntegers = (text: string): string => {
  let out = ""
  let copiedUpTo = 0
  let i = 0
  while (i < text.length) {
    const code = text.charCodeAt(i)
    if (code === 34) {
      // Skip a string literal, honouring escapes, so digits inside hex strings stay untouched.
      i++
      while (i < text.length && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1
      i++
    } else if (code === 45 || isDigit(code)) {
      const start = i
      i++
      while (i < text.length && isDigit(text.charCodeAt(i))) i++
      const digits = i - start - (code === 45 ? 1 : 0)
      // Fractions and exponents are consumed whole and left alone: they are never int64 fields.
      const isInteger = !/[.eE]/.test(text[i] ?? "")
      while (i < text.length && /[0-9.eE+-]/.test(text[i]!)) i++
      if (isInteger && digits > maxExactDigits) {
        out += text.slice(copiedUpTo, start) + `"${text.slice(start, i)}"`
        copiedUpTo = i
      }
    } else {
      i++
    }
  }
  return copiedUpTo === 0 ? text : out + text.slice(copiedUpTo)
}

/** Parses JSON text; integers that a double cannot hold exactly come back as digit strings. */
export const parseLosslessJson = (text: string): unknown => JSON.parse(quoteLongIntegers(text))
