import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"

/** The receiving wallet a seeded deposit belongs to, as the wallet operations returned it. */
export interface SeedWallet {
  readonly tenantId: string
  readonly network: "main" | "nile"
  readonly id: string
  readonly address: string
  readonly customId: string
}

/** Every other column of a deposit row; what is left out gets a plausible, unique value. */
export interface DepositSeed {
  readonly status?: "confirmed" | "reverted"
  readonly revision?: number
  readonly source?: string
  readonly contract?: string
  readonly amount?: string
  readonly txid?: string
  readonly logIndex?: number
  readonly blockNumber?: string
  readonly blockHash?: string | null
  readonly blockTime?: string
  readonly createdAt?: string
  readonly confirmationType?: "block_1" | "block_3" | "block_6" | "block_12" | "solidified"
  readonly confirmations?: number | null
}

export interface SeededDeposit {
  readonly id: string
  readonly eventId: string
  readonly txid: string
}

/** The Nile test-token contract, standing in for the USDT contract of a seeded log. */
export const seedContract = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"
/** A source address that is never one of the tenant's wallets. */
export const seedSource = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"

/**
 * Inserts one deposit row as the chain pipeline would store it, and for a confirmed one adds its
 * amount to the scope's `deposit_totals` in the same transaction, as the confirming statement does.
 */
export const seedDeposit = (wallet: SeedWallet, seed: DepositSeed = {}) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql.withTransaction(Effect.gen(function*() {
    const status = seed.status ?? "confirmed"
    const confirmationType = seed.confirmationType ?? "solidified"
    const amount = seed.amount ?? "1000000"
    const txid = seed.txid ?? randomBytes(32).toString("hex")
    const [row] = yield* sql<{ id: string; event_id: string }>`
      INSERT INTO deposits (tenant_id, network, wallet_id, txid, log_index, status, revision, event_id, custom_id, address,
        source, contract, amount, block_number, block_hash, block_time, confirmation_type, confirmations, created_at, updated_at)
      VALUES (${wallet.tenantId}, ${wallet.network}, ${wallet.id}, ${txid}, ${seed.logIndex ?? 0}, ${status}, ${seed.revision ?? 1},
        nextval('task_event_id_seq'), ${wallet.customId}, ${wallet.address}, ${seed.source ?? seedSource}, ${seed.contract ?? seedContract},
        ${amount}::numeric, ${seed.blockNumber ?? "1000"}::bigint,
        ${seed.blockHash === undefined ? randomBytes(32).toString("hex") : seed.blockHash},
        ${seed.blockTime ?? "2026-01-01T00:00:00.123Z"}::timestamptz, ${confirmationType},
        ${seed.confirmations === undefined ? (confirmationType === "solidified" ? null : 1) : seed.confirmations},
        ${seed.createdAt ?? "2026-01-01T00:00:03.456Z"}::timestamptz, ${seed.createdAt ?? "2026-01-01T00:00:03.456Z"}::timestamptz)
      RETURNING id::text AS id, event_id::text AS event_id`
    if (status === "confirmed") {
      yield* sql`
        INSERT INTO deposit_totals (tenant_id, network, confirmed_usdt) VALUES (${wallet.tenantId}, ${wallet.network}, ${amount}::numeric)
        ON CONFLICT (tenant_id, network) DO UPDATE SET confirmed_usdt = deposit_totals.confirmed_usdt + excluded.confirmed_usdt`
    }
    return { id: row!.id, eventId: row!.event_id, txid } satisfies SeededDeposit
  }))).pipe(Effect.orDie)

/** `n` deposits to `wallet` one after another, so their IDs ascend; each `seed(i)` from i = 0. */
export const seedDeposits = (wallet: SeedWallet, n: number, seed: (i: number) => DepositSeed = () => ({})) =>
  Effect.forEach(Array.from({ length: n }, (_, i) => i), (i) => seedDeposit(wallet, seed(i)))
