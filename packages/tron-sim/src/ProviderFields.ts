import { Effect } from "effect"
import { type Body, stringField } from "./RequestBody.js"
import { SimControlError } from "./SimErrors.js"

/**
 * Reading the JSON bodies of the provider API and its control routes: integers (energy, SUN,
 * counts) as JSON numbers or digit strings, flags as booleans (or "true"/"false"), text as
 * strings. A value that cannot be read is a SimControlError naming the field.
 */

const invalid = (reason: string) => new SimControlError({ reason })

export const integerField = (body: Body, name: string, fallback?: bigint): Effect.Effect<bigint, SimControlError> => {
  const value = body[name]
  if (value === undefined && fallback !== undefined) return Effect.succeed(fallback)
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return Effect.succeed(BigInt(value))
  if (typeof value === "string" && /^\d{1,30}$/.test(value)) return Effect.succeed(BigInt(value))
  return Effect.fail(invalid(`${name} must be a non-negative integer (a JSON number or a digit string)`))
}

/** A small integer within [min, max]. */
export const boundedField = (body: Body, name: string, min: number, max: number, fallback?: number): Effect.Effect<number, SimControlError> =>
  Effect.flatMap(integerField(body, name, fallback === undefined ? undefined : BigInt(fallback)), (value) =>
    value >= BigInt(min) && value <= BigInt(max)
      ? Effect.succeed(Number(value))
      : Effect.fail(invalid(`${name} must be between ${min} and ${max}, got ${value}`)))

export const flagField = (body: Body, name: string): Effect.Effect<boolean, SimControlError> => {
  const value = body[name]
  if (value === undefined || value === false || value === "false") return Effect.succeed(false)
  if (value === true || value === "true") return Effect.succeed(true)
  return Effect.fail(invalid(`${name} must be true or false`))
}

export const textField = (body: Body, name: string): Effect.Effect<string, SimControlError> => {
  const value = stringField(body, name)
  return value === "" ? Effect.fail(invalid(`${name} is required`)) : Effect.succeed(value)
}

/** Optional text: absent or "" gives `fallback`. */
export const optionalText = (body: Body, name: string, fallback: string): string => stringField(body, name) || fallback
