import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient, type SqlConnection } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { type Kernel, type Tenants, Wallets } from "@collector/core"
import { PgAccessTokenRepository, PgWalletRepository } from "@collector/postgres"
import { Effect } from "effect"
import { emptyPageTotal, findStatement, type ListQuery, listStatement, tokenStatement } from "./ReferenceApiServer.js"

interface Captured {
  readonly text: string
  readonly values: ReadonlyArray<unknown>
}

/**
 * The statements our adapters send for one call, captured from a SqlClient whose connection
 * records them instead of reaching a database (the same compiler as @effect/sql-pg's client).
 */
const capture = <A>(use: (client: SqlClient.SqlClient) => Effect.Effect<A>) =>
  Effect.gen(function*() {
    const sent: Array<Captured> = []
    const answer = (text: string) => (text.includes(" AS n FROM") ? [{ n: "0" }] : [])
    const connection: SqlConnection.Connection = {
      execute: (text, values) => Effect.sync(() => (sent.push({ text, values }), answer(text))),
      executeRaw: (text, values) => Effect.sync(() => (sent.push({ text, values }), answer(text))),
      executeValues: (text, values) => Effect.sync(() => (sent.push({ text, values }), [])),
      executeUnprepared: (text, values) => Effect.sync(() => (sent.push({ text, values }), [])),
      executeStream: () => {
        throw new Error("not captured")
      }
    }
    const client = yield* SqlClient.make({ acquirer: Effect.succeed(connection), compiler: PgClient.makeCompiler(), spanAttributes: [] })
    yield* use(client)
    return sent
  }).pipe(Effect.provide(Reactivity.layer))

const same = (label: string, ours: ReadonlyArray<Captured>, reference: ReadonlyArray<Captured>) => {
  const plain = (c: Captured) => JSON.stringify({ text: c.text, values: c.values.map((v) => (v instanceof Uint8Array ? "<bytes>" : v instanceof Date ? "<date>" : v)) })
  const a = ours.map(plain)
  const b = reference.map(plain)
  if (a.length !== b.length || a.some((x, i) => x !== b[i])) {
    throw new Error(`${label}: the reference's statements differ from our adapter's\nours:      ${a.join("\n           ")}\nreference: ${b.join("\n           ")}`)
  }
  return a.length
}

/**
 * Checks that the reference server sends, statement for statement, the text and parameters our
 * adapters send for the benchmarked operations (bytes and times compared by kind). Throws on a
 * difference; returns how many statements were compared.
 */
export const checkReferenceStatements = () =>
  Effect.runPromise(Effect.gen(function*() {
    const scope = { tenantId: "2", network: "nile" } as unknown as Tenants.TenantScope
    let n = 0
    // The wallet detail.
    const find = yield* capture((sql) => Effect.flatMap(Effect.provideService(PgWalletRepository.make, SqlClient.SqlClient, sql), (repo) => repo.find(scope, "77" as Kernel.WalletId)))
    n += same("wallet detail", find, [{ text: findStatement, values: ["77", "2", "nile"] }])
    // The list: default page, address filter with balance sort, and a page past the end of each.
    for (const q of [
      { address: undefined, sort: "created_at", order: "desc", page: 1, pageSize: 20 },
      { address: "9S1b", sort: "balance_usdt", order: "desc", page: 1, pageSize: 20 },
      { address: "x\\_%", sort: "last_collected_at", order: "asc", page: 3, pageSize: 50 }
    ] satisfies Array<ListQuery>) {
      const query: Wallets.WalletQuery = { filters: q.address === undefined ? {} : { address: q.address }, sort: q.sort as Wallets.WalletQuery["sort"], order: q.order as "asc" | "desc", page: q.page, pageSize: q.pageSize }
      const ours = yield* capture((sql) => Effect.flatMap(Effect.provideService(PgWalletRepository.make, SqlClient.SqlClient, sql), (repo) => repo.list(scope, query)))
      // The page, then (the capture returns no rows: a page past the end) the total on its own.
      n += same(`list ${JSON.stringify(q)}`, ours, [listStatement("2", "nile", q), emptyPageTotal("2", "nile", q)])
    }
    // The token insert.
    const token = yield* capture((sql) =>
      Effect.flatMap(Effect.provideService(PgAccessTokenRepository.make, SqlClient.SqlClient, sql), (repo) => repo.insert(new Uint8Array(32), "5" as Kernel.AppId, new Date()))
    )
    n += same("token issue", token, [{ text: tokenStatement, values: [new Uint8Array(32), "5", new Date()] }])
    return n
  }))

/**
 * The statements our wallet repository sends to create one wallet (draw its ID, then insert the
 * wallet, its sealed key and its count under the tenant's limit), for the wallet-create reference
 * to compare its own against (bench/support/ReferenceWalletCreate.ts).
 */
export const walletCreateStatements = (scope: { readonly tenantId: string; readonly network: string }, id: string, address: string, customId: string, keyId: string, blob: Uint8Array, maxWallets: number) =>
  Effect.runPromise(capture((sql) =>
    Effect.flatMap(Effect.provideService(PgWalletRepository.make, SqlClient.SqlClient, sql), (repo) =>
      Effect.zipRight(
        // Sent, then it dies on the capture's empty answer; the statement is what counts.
        Effect.exit(repo.drawId),
        Effect.ignore(repo.insert(scope as unknown as Tenants.TenantScope, { id: id as Kernel.WalletId, customId, address, key: Wallets.localKey({ keyId, blob }) }, maxWallets))
      ))
  ))

/** Throws unless `reference` sends our statements' text and parameters (bytes compared by kind). */
export const checkSameStatements = (label: string, ours: ReadonlyArray<Captured>, reference: ReadonlyArray<Captured>) => same(label, ours, reference)
