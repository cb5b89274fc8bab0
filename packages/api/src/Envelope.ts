import { Schema } from "effect"

/**
 * The success envelope `{code: 0, message: "", data}` around a success schema: handlers
 * return plain data, the wire carries the envelope, and the typed client unwraps it.
 */
export const Ok = <A, I, R>(data: Schema.Schema<A, I, R>) =>
  Schema.transform(
    Schema.Struct({ code: Schema.Literal(0), message: Schema.Literal(""), data }),
    Schema.typeSchema(data),
    {
      strict: true,
      decode: (envelope) => envelope.data,
      encode: (value) => ({ code: 0 as const, message: "" as const, data: value })
    }
  )
