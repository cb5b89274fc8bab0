import { defaultTokenTtlDays, OperatorAccess } from "@collector/console"
import type { Operators } from "@collector/core"
import { Console, Effect } from "effect"
import { UsageError } from "../CliError.js"
import type { Parsed } from "./TenantCommands.js"

const maxTtlDays = 366

const ttlOf = (parsed: Parsed) => {
  const value = parsed.values.ttl
  if (value === undefined) return Effect.succeed(defaultTokenTtlDays)
  const days = typeof value === "string" && /^[1-9][0-9]{0,3}$/.test(value) ? Number(value) : NaN
  return days >= 1 && days <= maxTtlDays
    ? Effect.succeed(days)
    : Effect.fail(new UsageError({ message: `--ttl must be a whole number of days from 1 to ${maxTtlDays}, not "${String(value)}"` }))
}

const describe = (t: Operators.OperatorCredential) => ({
  id: t.id,
  created_at: t.createdAt.toISOString(),
  expires_at: t.expiresAt.toISOString(),
  revoked_at: t.revokedAt?.toISOString() ?? null
})

/** `operator token create [--ttl <days>] [--json]`: a console token, printed once. */
const create = (parsed: Parsed) =>
  Effect.gen(function*() {
    const { credential, token } = yield* (yield* OperatorAccess).createToken(yield* ttlOf(parsed))
    yield* Console.log(
      parsed.values.json === true
        ? JSON.stringify({ token, id: credential.id, expires_at: credential.expiresAt.toISOString() })
        : `Operator token ${credential.id}, valid until ${credential.expiresAt.toISOString()}. Shown once: store it now.\n  ${token}`
    )
  })

/** `operator token list [--json]`: every token's ID and dates, never the token. */
const list = (parsed: Parsed) =>
  Effect.gen(function*() {
    const tokens = (yield* (yield* OperatorAccess).listTokens).map(describe)
    yield* Console.log(
      parsed.values.json === true
        ? JSON.stringify(tokens)
        : tokens.length === 0
        ? "No operator tokens."
        : tokens.map((t) => `${t.id}\tcreated ${t.created_at}\texpires ${t.expires_at}${t.revoked_at === null ? "" : `\trevoked ${t.revoked_at}`}`).join("\n")
    )
  })

/** `operator token revoke <id>`: the token and its console sessions stop working at once. */
const revoke = (parsed: Parsed) =>
  Effect.gen(function*() {
    const id = parsed.positionals[3]
    if (id === undefined) return yield* new UsageError({ message: "name the token: its ID (operator token list)" })
    const token = yield* (yield* OperatorAccess).revokeToken(id)
    yield* Console.log(parsed.values.json === true ? JSON.stringify(describe(token)) : `Operator token ${token.id} revoked at ${token.revokedAt?.toISOString()}.`)
  })

/** Under `operator token <command>`. */
export const operatorTokenCommands = { create, list, revoke }
