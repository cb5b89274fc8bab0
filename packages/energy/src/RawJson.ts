/**
 * JSON.parse for provider replies with every number kept as the text it was written as. Money
 * must never pass through a double: `"pay_amount": 8.43276` (TRX) or an int64 of SUN beyond 2^53
 * would be rounded by `JSON.parse`. Number literals outside strings are therefore turned into
 * JSON strings before parsing, and the wire schemas read them exactly (see Sun).
 */

const isNumberStart = (code: number) => code === 45 || (code >= 48 && code <= 57)

/** `-?digits(.digits)?([eE][+-]?digits)?` starting at `start`: where it ends. */
const numberEnd = (text: string, start: number): number => {
  let i = start
  while (i < text.length && /[0-9eE.+-]/.test(text[i]!)) i++
  return i
}

/** Quotes every number literal outside strings; strings are copied untouched. */
export const quoteNumbers = (text: string): string => {
  let out = ""
  let copiedUpTo = 0
  let i = 0
  while (i < text.length) {
    const code = text.charCodeAt(i)
    if (code === 34) {
      i++
      while (i < text.length && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1
      i++
    } else if (isNumberStart(code)) {
      const end = numberEnd(text, i)
      out += text.slice(copiedUpTo, i) + `"${text.slice(i, end)}"`
      copiedUpTo = end
      i = end
    } else {
      i++
    }
  }
  return out + text.slice(copiedUpTo)
}

/** Parses JSON text; every number comes back as its literal text. Throws on invalid JSON. */
export const parseRawJson = (text: string): unknown => JSON.parse(quoteNumbers(text))
