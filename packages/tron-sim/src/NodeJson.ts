import { TronAddress } from "@collector/tron"
import { Option } from "effect"

/**
 * java-tron's JSON conventions, shared by every reply: protobuf defaults (0, false, "", [])
 * left out, int64 as bare JSON numbers (even beyond 2^53), bytes as lower-case hex, addresses
 * as 21-byte hex or, with `visible: true`, Base58Check. Errors come with HTTP 200.
 */

const marker = "@@int64@@"
const markedInteger = new RegExp(`"${marker}(-?\\d+)${marker}"`, "g")

/** JSON text in which bigints are written as exact integer literals, as java-tron prints int64. */
export const stringify = (value: unknown): string =>
  JSON.stringify(value, (_, item) => (typeof item === "bigint" ? `${marker}${item}${marker}` : item)).replace(markedInteger, "$1")

const isDefault = (value: unknown): boolean =>
  value === undefined || value === 0 || value === 0n || value === false || value === "" || (Array.isArray(value) && value.length === 0)

/** The object without its default-valued fields, as protobuf's JSON printer leaves them out. */
export const compact = <A extends Record<string, unknown>>(object: A): Partial<A> =>
  Object.fromEntries(Object.entries(object).filter(([, value]) => !isDefault(value))) as Partial<A>

/** An address field: 41-hex, or Base58Check when the request asked for `visible`. */
export const addressText = (hex21: string, visible: boolean): string =>
  visible ? Option.getOrElse(TronAddress.fromHex(hex21), () => hex21) : hex21

/** A bytes field holding text (messages): hex of its UTF-8, or the text itself with `visible`. */
export const bytesText = (text: string, visible: boolean): string => (visible ? text : Buffer.from(text, "utf8").toString("hex"))

/** `{"Error": "class <exception> : <text>"}`: what a servlet prints when it throws. */
export const errorReply = (exception: string, text: string) => ({ Error: `class ${exception} : ${text}` })

/** A failed `Return` of contract builders and calls: `{"result": {"code", "message"}}`. */
export const returnFailure = (code: string, message: string, visible: boolean) => ({
  result: { code, message: bytesText(message, visible) }
})

/** Reads a request body's `visible` flag (java-tron accepts a boolean or the string "true"). */
export const isVisible = (body: Record<string, unknown>): boolean => body["visible"] === true || body["visible"] === "true"
