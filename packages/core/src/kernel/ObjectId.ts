import { Schema } from "effect"
import { isCanonicalPositiveInt64 } from "./Int64Id.js"

/**
 * An ID as the contract carries it: canonical positive int64 text. Declared here, beside the
 * contract objects the core builds (deposit record, sweep result body), so that the API and the
 * webhook receiver read those objects with the very schema the server writes them by.
 */
export const ObjectId = Schema.String.pipe(
  Schema.filter((s) => isCanonicalPositiveInt64(s) || "id must be a positive integer ID (1 to 9223372036854775807, no leading zeros or sign)"),
  Schema.annotations({ description: "Positive int64 as a decimal string." })
)
