import { SqlClient } from "@effect/sql"
import { CustomIdTaken, type Network, type Wallet, type WalletId, WalletRepository } from "@collector/core"
import { Effect, Layer, Option } from "effect"
import { isUniqueViolationOf } from "./SqlErrors"

interface WalletRow {
  readonly id: string
  readonly network: Network
  readonly address: string
  readonly custom_id: string
  readonly balance_usdt: string | null
  readonly balance_trx: string | null
  readonly balance_block: string
  readonly collected_usdt: string
  readonly last_collected_at: Date | null
  readonly created_at: Date
}

const toWallet = (row: WalletRow): Wallet => ({
  id: row.id as WalletId,
  network: row.network,
  address: row.address,
  customId: row.custom_id,
  // Sweeps (a later issue) make a wallet `collecting`; until then every wallet is idle.
  collectionStatus: "idle",
  balanceUsdt: row.balance_usdt === null ? null : BigInt(row.balance_usdt),
  balanceTrx: row.balance_trx === null ? null : BigInt(row.balance_trx),
  balanceBlock: BigInt(row.balance_block),
  destination: "",
  collectedUsdt: BigInt(row.collected_usdt),
  lastCollectedAt: row.last_collected_at,
  createdAt: row.created_at
})

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return WalletRepository.of({
    insert: (scope, wallet) =>
      sql.withTransaction(
        Effect.gen(function*() {
          const [row] = yield* sql<{ id: string; created_at: Date }>`
            INSERT INTO wallets (tenant_id, network, address, custom_id)
            VALUES (${scope.tenantId}, ${scope.network}, ${wallet.address}, ${wallet.customId})
            RETURNING id, created_at`
          yield* sql`
            INSERT INTO wallet_keys (wallet_id, key_id, sealed_key)
            VALUES (${row!.id}, ${wallet.sealedKey.keyId}, ${wallet.sealedKey.blob})`
          return { id: row!.id as WalletId, address: wallet.address, customId: wallet.customId, network: scope.network, createdAt: row!.created_at }
        })
      ).pipe(
        Effect.catchIf(isUniqueViolationOf("wallets_tenant_id_network_custom_id_key"), () => Effect.fail(new CustomIdTaken({ customId: wallet.customId }))),
        Effect.catchTag("SqlError", Effect.die)
      ),
    find: (scope, id) =>
      sql<WalletRow>`
        SELECT id, network, address, custom_id, balance_usdt::text, balance_trx::text, balance_block, collected_usdt::text,
               last_collected_at, created_at
        FROM wallets WHERE id = ${id} AND tenant_id = ${scope.tenantId} AND network = ${scope.network}`.pipe(
        Effect.orDie,
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toWallet))
      )
  })
})

export const PgWalletRepository = Layer.effect(WalletRepository, make)
