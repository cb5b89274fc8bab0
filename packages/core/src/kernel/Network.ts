import { Schema } from "effect"

/** A TRON network the service serves. Every tenant object is scoped to one. */
export const Network = Schema.Literal("main", "nile")
export type Network = typeof Network.Type

export const allNetworks: ReadonlyArray<Network> = ["main", "nile"]

export const parseNetworkList = (text: string): ReadonlyArray<Network> | undefined => {
  const items = text.split(",").map((s) => s.trim()).filter((s) => s.length > 0)
  if (items.length === 0) return undefined
  const unique = [...new Set(items)]
  return unique.every((n): n is Network => n === "main" || n === "nile") ? unique : undefined
}
