import { Kernel, Wallets } from "@collector/core"
import { Schema } from "effect"

const utf8Length = (text: string) => new TextEncoder().encode(text).length

/** The persistent idempotency key of a write: 16 to 128 UTF-8 bytes. */
// PostgreSQL text cannot hold U+0000; refused here as a 400 rather than failing in storage.
const withoutNul = (s: string) => !s.includes("\u0000")

export const RequestId = Schema.String.pipe(
  Schema.filter((s) => (utf8Length(s) >= 16 && utf8Length(s) <= 128) || "request_id must be 16 to 128 UTF-8 bytes"),
  Schema.filter((s) => withoutNul(s) || "request_id must not contain U+0000"),
  Schema.annotations({ description: "Persistent idempotency key, 16 to 128 UTF-8 bytes; a UUID is recommended." })
)

export const CustomId = Schema.String.pipe(
  Schema.filter((s) => Wallets.isValidCustomId(s) || "custom_id must be 1 to 32 characters with no leading or trailing whitespace"),
  Schema.filter((s) => withoutNul(s) || "custom_id must not contain U+0000"),
  Schema.annotations({ description: "Tenant-defined ID, unique within the tenant and network; 1 to 32 characters." })
)

// The core's deposit record and sweep result body are made of these, so the core declares them.
export const Amount = Kernel.Amount
export const ObjectId = Kernel.ObjectId

export const Timestamp = Schema.String.pipe(Schema.annotations({ description: "RFC 3339 time with zone." }))

/** Strict object: unknown members are a 400, never silently dropped. */
export const strict = <S extends Schema.Struct.Fields>(fields: S) =>
  Schema.Struct(fields).annotations({ parseOptions: { onExcessProperty: "error" } })
