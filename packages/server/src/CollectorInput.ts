import { Kernel } from "@collector/core"
import { CustomId } from "@collector/api"
import { Data, Effect, ParseResult, Schema } from "effect"

/**
 * An argument of a `Collector` call that the published schemas refuse: which call, which field
 * (a dotted path into the argument, e.g. `scope.tenantId`) and why. Raised before any storage is
 * touched, so that a JavaScript caller's `undefined` is named here rather than surfacing as a
 * database constraint violation.
 */
export class InvalidInput extends Data.TaggedError("InvalidInput")<{
  readonly operation: string
  readonly field: string
  readonly reason: string
}> {
  override get message() {
    return `${this.operation}: ${this.field} ${this.reason}`
  }
}

/** `{ tenantId, network }` from the core's ID and network schemas; unknown members refused. */
export const TenantScopeInput = Schema.Struct({ tenantId: Kernel.TenantId, network: Kernel.Network }).annotations({
  parseOptions: { onExcessProperty: "error" }
})

/** A tenant's name as `TenantAdmin.create` takes it (its length and characters are the core's policy, checked there). */
export const TenantNameInput = Schema.String

/** The networks a tenant is created on: at least one, each a known network. */
export const NetworksInput = Schema.Array(Kernel.Network).pipe(Schema.minItems(1))

/** A page of a list: 1-based page, 1 to 100 items (the HTTP API's bounds). */
export const PagingInput = Schema.Struct({
  page: Schema.optionalWith(Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)), { default: () => 1 }),
  pageSize: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 100)), { default: () => 50 }),
  address: Schema.optionalWith(Schema.String, { default: () => "" })
})

export { CustomId as CustomIdInput }
export const WalletIdInput = Kernel.WalletId

/**
 * Decodes each named argument with its schema, in order; the first refusal fails with
 * `InvalidInput` naming the argument and the path inside it.
 */
export const decodeArguments = <const Fields extends Record<string, Schema.Schema<any, any, never>>>(
  operation: string,
  fields: Fields,
  values: { readonly [K in keyof Fields]: unknown }
): Effect.Effect<{ readonly [K in keyof Fields]: Schema.Schema.Type<Fields[K]> }, InvalidInput> =>
  Effect.gen(function*() {
    const decoded: Record<string, unknown> = {}
    for (const name of Object.keys(fields)) {
      const result = Schema.decodeUnknownEither(fields[name]!)(values[name as keyof Fields])
      if (result._tag === "Left") {
        const issue = ParseResult.ArrayFormatter.formatErrorSync(result.left)[0]
        const path = issue === undefined ? [] : issue.path.map(String)
        return yield* Effect.fail(
          new InvalidInput({ operation, field: [name, ...path].join("."), reason: issue?.message ?? "is invalid" })
        )
      }
      decoded[name] = result.right
    }
    return decoded as { readonly [K in keyof Fields]: Schema.Schema.Type<Fields[K]> }
  })
