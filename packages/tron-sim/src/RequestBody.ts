import { TronAddress } from "@collector/tron"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { Either, Option } from "effect"
import { errorReply } from "./NodeJson.js"

/**
 * Reading a java-tron request body: JSON with addresses in the form `visible` says, numbers
 * as JSON numbers (or digit strings), call data either as `data` or as `function_selector`
 * plus `parameter`. A value that cannot be read becomes the `{"Error"}` reply java-tron gives.
 */

export type Body = Readonly<Record<string, unknown>>

export type ErrorReply = ReturnType<typeof errorReply>

const illegal = (text: string) => errorReply("java.lang.IllegalArgumentException", text)

export const parseBody = (text: string): Either.Either<Body, ErrorReply> => {
  if (text.trim() === "") return Either.right({})
  try {
    const json: unknown = JSON.parse(text)
    return typeof json === "object" && json !== null && !Array.isArray(json)
      ? Either.right(json as Body)
      : Either.left(errorReply("com.alibaba.fastjson.JSONException", "not a JSON object"))
  } catch (error) {
    return Either.left(errorReply("com.alibaba.fastjson.JSONException", String(error)))
  }
}

/** An address field as 21-byte hex; Base58Check is expected with `visible`, 41-hex otherwise. */
export const addressField = (body: Body, name: string, visible: boolean): Either.Either<string, ErrorReply> => {
  const value = body[name]
  if (typeof value !== "string" || value === "") return Either.left(illegal(`${name} isn't set.`))
  const hex = visible ? TronAddress.toHex(value) : Option.filter(Option.some(value.toLowerCase()), (text) => /^41[0-9a-f]{40}$/.test(text))
  return Either.fromOption(hex, () => illegal(`Invalid ${name}: ${value}`))
}

/** An int64 field; absent is 0. */
export const intField = (body: Body, name: string): Either.Either<bigint, ErrorReply> => {
  const value = body[name]
  if (value === undefined || value === null || value === "") return Either.right(0n)
  if (typeof value === "number" && Number.isSafeInteger(value)) return Either.right(BigInt(value))
  if (typeof value === "string" && /^-?\d{1,19}$/.test(value)) return Either.right(BigInt(value))
  return Either.left(illegal(`${name} must be an integer, got ${String(value)}`))
}

export const stringField = (body: Body, name: string): string => {
  const value = body[name]
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : ""
}

/** keccak256 of the signature's text (spaces removed), first 4 bytes: java-tron's Util.parseMethod. */
export const selectorOf = (signature: string): string =>
  Buffer.from(keccak_256(new TextEncoder().encode(signature.replace(/\s/g, "")))).toString("hex").slice(0, 8)

/** Call data of a contract request: `function_selector` + `parameter`, or `data` as given. */
export const callData = (body: Body): Either.Either<string, ErrorReply> => {
  const selector = stringField(body, "function_selector")
  const data = selector === "" ? stringField(body, "data") : selectorOf(selector) + stringField(body, "parameter")
  return /^(?:[0-9a-fA-F]{2})*$/.test(data) ? Either.right(data.toLowerCase()) : Either.left(illegal("call data must be hex"))
}
