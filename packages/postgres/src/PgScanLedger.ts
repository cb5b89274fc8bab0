import { SqlClient } from "@effect/sql"
import { type Chain, type Kernel, Scanning } from "@collector/core"
import { Effect, Layer, Option } from "effect"
import { integerArray, textArray } from "./PgArrays.js"
import { render } from "./RowRuleSql.js"

// The partial index sweep_tasks_txid serves it only because `txid <> ''` is repeated here.
export const sweepsAmongStatement = (sql: SqlClient.SqlClient, network: Kernel.Network, txids: ReadonlyArray<string>) =>
  sql<{ txid: string; tenant_id: string; address: string; destination: string }>`
    SELECT txid, tenant_id::text, address, destination FROM sweep_tasks
    WHERE network = ${network} AND txid <> '' AND txid = ANY(${textArray(txids)}::text[])`

interface BlockRow {
  readonly number: string
  readonly hash: string
  readonly parent_hash: string
  readonly block_time: Date
}

const toBlockRef = (row: BlockRow): Chain.BlockRef => ({
  number: BigInt(row.number),
  hash: row.hash,
  parentHash: row.parent_hash,
  timestamp: row.block_time
})

const transferRow = (network: string, observed: Scanning.ObservedTransfer) => ({
  network,
  txid: observed.transfer.txid,
  log_index: observed.transfer.logIndex,
  block_number: observed.block.number.toString(),
  block_hash: observed.block.hash,
  block_time: observed.block.timestamp,
  tenant_id: observed.wallet.tenantId,
  wallet_id: observed.wallet.walletId,
  custom_id: observed.wallet.customId,
  address: observed.wallet.address,
  source: observed.transfer.from,
  contract: observed.transfer.contract,
  amount: observed.transfer.amount.toString()
})

const outflowRow = (network: string, observed: Scanning.ObservedTransfer) => ({
  network,
  txid: observed.transfer.txid,
  log_index: observed.transfer.logIndex,
  block_number: observed.block.number.toString(),
  block_hash: observed.block.hash,
  block_time: observed.block.timestamp,
  tenant_id: observed.wallet.tenantId,
  wallet_id: observed.wallet.walletId,
  custom_id: observed.wallet.customId,
  address: observed.wallet.address,
  destination: observed.transfer.to,
  contract: observed.transfer.contract,
  amount: observed.transfer.amount.toString()
})

interface OutflowRow {
  readonly network: Kernel.Network
  readonly txid: string
  readonly log_index: number
  readonly block_number: string
  readonly block_hash: string
  readonly block_time: Date
  readonly tenant_id: string
  readonly wallet_id: string
  readonly custom_id: string
  readonly address: string
  readonly destination: string
  readonly contract: string
  readonly amount: string
  readonly state: Scanning.OutflowState
  readonly task_id: string | null
}

const toStoredOutflow = (row: OutflowRow): Scanning.StoredOutflow => ({
  network: row.network,
  // The parent hash is not kept with the outflow: no reader of it needs it.
  block: { number: BigInt(row.block_number), hash: row.block_hash, parentHash: "", timestamp: row.block_time },
  transfer: { txid: row.txid, logIndex: row.log_index, from: row.address, to: row.destination, amount: BigInt(row.amount), contract: row.contract },
  wallet: { walletId: row.wallet_id as Kernel.WalletId, tenantId: row.tenant_id as Kernel.TenantId, address: row.address, customId: row.custom_id, depositMinimum: null },
  state: row.state,
  taskId: row.task_id
})

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const moveCursor = (network: string, from: { number: bigint; hash: string }, to: { number: bigint; hash: string }, tip?: { head: bigint; solidified: bigint }) =>
    sql<{ network: string }>`
      UPDATE scan_cursors SET block_number = ${to.number.toString()}, block_hash = ${to.hash},
        head_number = ${tip === undefined ? sql`head_number` : tip.head.toString()},
        solidified_number = ${tip === undefined ? sql`solidified_number` : tip.solidified.toString()},
        updated_at = now()
      WHERE network = ${network} AND block_number = ${from.number.toString()} AND block_hash = ${from.hash}
      RETURNING network`.pipe(
      Effect.orDie,
      Effect.flatMap((rows) => rows.length === 1 ? Effect.void : Effect.fail(new Scanning.CursorMoved({ network: network as never })))
    )

  return Scanning.ScanLedger.of({
    cursor: (network) =>
      sql<{ block_number: string; block_hash: string }>`SELECT block_number, block_hash FROM scan_cursors WHERE network = ${network}`.pipe(
        Effect.orDie,
        Effect.map(([row]) => row === undefined ? Option.none() : Option.some({ number: BigInt(row.block_number), hash: row.block_hash }))
      ),
    storedBlock: (network, number) =>
      sql<BlockRow>`SELECT number, hash, parent_hash, block_time FROM scanned_blocks WHERE network = ${network} AND number = ${number.toString()}`.pipe(
        Effect.orDie,
        Effect.map(([row]) => Option.map(Option.fromNullable(row), toBlockRef))
      ),
    oldestStored: (network) =>
      sql<{ number: string | null }>`SELECT min(number) AS number FROM scanned_blocks WHERE network = ${network}`.pipe(
        Effect.orDie,
        Effect.map(([row]) => row?.number == null ? Option.none() : Option.some(BigInt(row.number)))
      ),
    // One indexed lookup (the unique (network, address) index) for every recipient of a batch.
    walletsAt: (network, addresses) =>
      sql<{ id: string; tenant_id: string; address: string; custom_id: string; deposit_minimum: string | null }>`
        SELECT w.id, w.tenant_id, w.address, w.custom_id, a.deposit_minimum::text AS deposit_minimum
        FROM wallets w LEFT JOIN apps a ON a.tenant_id = w.tenant_id AND a.network = w.network
        WHERE w.network = ${network} AND w.address = ANY(${textArray(addresses)}::text[])`.pipe(
        Effect.orDie,
        Effect.map((rows) =>
          rows.map((row): Scanning.WalletMatch => ({
            walletId: row.id as Kernel.WalletId,
            tenantId: row.tenant_id as Kernel.TenantId,
            address: row.address,
            customId: row.custom_id,
            depositMinimum: row.deposit_minimum === null ? null : BigInt(row.deposit_minimum)
          }))
        )
      ),
    // Only the transactions of transfers to tenant wallets are asked about.
    sweepsAmong: (network, txids) =>
      sweepsAmongStatement(sql, network, txids).pipe(
        Effect.orDie,
        Effect.map((rows) =>
          rows.map((row): Scanning.SweepTransaction => ({ txid: row.txid, tenantId: row.tenant_id as Kernel.TenantId, from: row.address, to: row.destination }))
        )
      ),
    append: (network, from, blocks, tip) =>
      sql.withTransaction(
        Effect.gen(function*() {
          const last = blocks[blocks.length - 1]!.block
          if (Option.isNone(from)) {
            const inserted = yield* sql<{ network: string }>`
              INSERT INTO scan_cursors (network, block_number, block_hash, head_number, solidified_number, updated_at)
              VALUES (${network}, ${last.number.toString()}, ${last.hash}, ${tip.head.toString()}, ${tip.solidified.toString()}, now())
              ON CONFLICT (network) DO NOTHING RETURNING network`.pipe(Effect.orDie)
            if (inserted.length === 0) return yield* new Scanning.CursorMoved({ network })
          } else {
            // First, so that a second scanner waits here on the row lock and then finds the cursor moved.
            yield* moveCursor(network, from.value, last, tip)
          }
          yield* sql`
            INSERT INTO scanned_blocks ${
            sql.insert(blocks.map(({ block }) => ({
              network,
              number: block.number.toString(),
              hash: block.hash,
              parent_hash: block.parentHash,
              block_time: block.timestamp
            })))
          }`.pipe(Effect.orDie)
          const transfers = blocks.flatMap((b) => b.transfers)
          const touchedBy = [...transfers, ...blocks.flatMap((b) => b.ownSweeps)]
          if (transfers.length > 0) {
            // A row for the same log can only be left from a block this chain no longer has: it moves.
            yield* sql`
              INSERT INTO observed_logs ${sql.insert(transfers.map((t) => transferRow(network, t)))}
              ON CONFLICT (network, txid, log_index) DO UPDATE SET
                block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash, block_time = EXCLUDED.block_time,
                booked = observed_logs.booked AND observed_logs.block_hash = EXCLUDED.block_hash`.pipe(Effect.orDie)
          }
          const outflows = blocks.flatMap((b) => b.outflows)
          if (outflows.length > 0) {
            // Stored before (a re-scan after a lost cursor): kept as it was, open, restored or reported.
            yield* sql`
              INSERT INTO unaccounted_outflows ${sql.insert(outflows.map((t) => outflowRow(network, t)))}
              ON CONFLICT (network, txid, log_index) DO NOTHING`.pipe(Effect.orDie)
          }
          if (touchedBy.length > 0) {
            // Balance sync takes wallets touched by a transfer first, and clears the mark only
            // once it has read them at a solidified block at or above the transfer's.
            const touched = new Map<string, bigint>()
            for (const t of touchedBy) {
              const seen = touched.get(t.wallet.walletId)
              if (seen === undefined || seen < t.block.number) touched.set(t.wallet.walletId, t.block.number)
            }
            yield* sql`
              UPDATE wallets w SET balance_stale_from = greatest(coalesce(w.balance_stale_from, 0), t.block)
              FROM unnest(${integerArray([...touched.keys()])}::bigint[], ${integerArray([...touched.values()])}::bigint[]) AS t(id, block)
              WHERE w.id = t.id`.pipe(Effect.orDie)
          }
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die)),
    rewind: (network, from, to) =>
      sql.withTransaction(
        Effect.gen(function*() {
          yield* moveCursor(network, from, to)
          yield* sql`DELETE FROM observed_logs WHERE network = ${network} AND block_number > ${to.number.toString()}`.pipe(Effect.orDie)
          // An outflow not acted on yet goes with its block; the chain that replaces it is scanned again.
          yield* sql`
            DELETE FROM unaccounted_outflows
            WHERE network = ${network} AND state = 'open' AND block_number > ${to.number.toString()}`.pipe(Effect.orDie)
          yield* sql`DELETE FROM scanned_blocks WHERE network = ${network} AND number > ${to.number.toString()}`.pipe(Effect.orDie)
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die)),
    // Only into a block still stored with the same hash, and never for a transfer already
    // confirmed in that block: a restore can add what is missing but never book anything twice.
    // One statement for the whole chunk, in the given order (a repeated log is stored once).
    restore: (network, transfers) => {
      if (transfers.length === 0) return Effect.succeed(0)
      const rows = transfers.map((t) => transferRow(network, t))
      const texts = (f: (r: ReturnType<typeof transferRow>) => string) => textArray(rows.map(f))
      return sql<{ txid: string }>`
        INSERT INTO observed_logs (network, txid, log_index, block_number, block_hash, block_time, tenant_id,
                                   wallet_id, custom_id, address, source, contract, amount)
        SELECT ${network}, r.txid, r.log_index, r.block_number, r.block_hash, r.block_time, r.tenant_id,
               r.wallet_id, r.custom_id, r.address, r.source, r.contract, r.amount
        FROM unnest(
          ${texts((r) => r.txid)}::text[],
          ${integerArray(rows.map((r) => r.log_index))}::int[],
          ${integerArray(rows.map((r) => r.block_number))}::bigint[],
          ${texts((r) => r.block_hash)}::text[],
          ${texts((r) => r.block_time.toISOString())}::timestamptz[],
          ${integerArray(rows.map((r) => r.tenant_id))}::bigint[],
          ${integerArray(rows.map((r) => r.wallet_id))}::bigint[],
          ${texts((r) => r.custom_id)}::text[],
          ${texts((r) => r.address)}::text[],
          ${texts((r) => r.source)}::text[],
          ${texts((r) => r.contract)}::text[],
          ${integerArray(rows.map((r) => r.amount))}::numeric[]
        ) WITH ORDINALITY AS r (txid, log_index, block_number, block_hash, block_time, tenant_id,
                                wallet_id, custom_id, address, source, contract, amount, ord)
        WHERE EXISTS (SELECT 1 FROM scanned_blocks b
                      WHERE b.network = ${network} AND b.number = r.block_number AND b.hash = r.block_hash)
          AND NOT EXISTS (SELECT 1 FROM deposits d
                          WHERE d.network = ${network} AND d.txid = r.txid AND d.log_index = r.log_index
                            AND d.status = 'confirmed' AND d.block_hash = r.block_hash)
        ORDER BY r.ord
        ON CONFLICT (network, txid, log_index) DO NOTHING
        RETURNING txid`.pipe(Effect.orDie, Effect.map((inserted) => inserted.length))
    },
    prune: (network, below) =>
      sql.withTransaction(
        Effect.gen(function*() {
          yield* sql`DELETE FROM observed_logs WHERE network = ${network} AND block_number < ${below.toString()} AND booked`
          yield* sql`DELETE FROM scanned_blocks WHERE network = ${network} AND number < ${below.toString()}`
        })
      ).pipe(Effect.orDie),
    forget: (network) =>
      sql.withTransaction(
        Effect.gen(function*() {
          yield* sql`DELETE FROM observed_logs WHERE network = ${network}`
          yield* sql`DELETE FROM scanned_blocks WHERE network = ${network}`
          yield* sql`DELETE FROM unaccounted_outflows WHERE network = ${network}`
          yield* sql`DELETE FROM scan_cursors WHERE network = ${network}`
        })
      ).pipe(Effect.orDie),
    // Keys qualified: a bare `block_number` would name the text alias `block_number::text` and sort as text.
    openOutflows: (network, limit) =>
      sql<OutflowRow>`
        SELECT network, txid, log_index, block_number::text, block_hash, block_time, tenant_id::text, wallet_id::text,
               custom_id, address, destination, contract, amount::text, state, task_id::text
        FROM unaccounted_outflows o WHERE network = ${network} AND state = 'open'
        ORDER BY o.block_number, o.txid COLLATE "C", o.log_index LIMIT ${limit}`.pipe(Effect.orDie, Effect.map((rows) => rows.map(toStoredOutflow))),
    closeOutflow: (network, transfer, resolution) =>
      sql<{ txid: string }>`
        UPDATE unaccounted_outflows
        SET state = ${resolution.state}, task_id = ${resolution.state === "restored" ? resolution.taskId : null}
        WHERE network = ${network} AND txid = ${transfer.txid} AND log_index = ${transfer.logIndex} AND state = 'open'
        RETURNING txid`.pipe(Effect.orDie, Effect.map((rows) => rows.length === 1)),
    claimLease: (network, holder, ttlMillis) =>
      // Before the first block is stored there is no row to lease: both may start, and the
      // cursor's insert lets exactly one of them win.
      sql<{ held: boolean }>`
        WITH claimed AS (
          UPDATE scan_cursors SET lease_holder = ${holder}, lease_expires_at = now() + make_interval(secs => ${ttlMillis / 1000})
          WHERE network = ${network}
            AND ${render(sql, Scanning.ScanLease.scanLeaseTakable, { leaseHolder: "lease_holder", leaseExpiresAt: "lease_expires_at" }, { holder, now: sql`now()` })}
          RETURNING 1
        )
        SELECT EXISTS (SELECT 1 FROM claimed) OR NOT EXISTS (SELECT 1 FROM scan_cursors WHERE network = ${network}) AS held`.pipe(Effect.orDie, Effect.map(([row]) => row?.held === true)),
    releaseLease: (network, holder) =>
      sql`UPDATE scan_cursors SET lease_holder = '', lease_expires_at = '-infinity' WHERE network = ${network} AND lease_holder = ${holder}`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),
    firstBlockSince: (network, time) =>
      sql<{ number: string | null }>`SELECT min(number) AS number FROM scanned_blocks WHERE network = ${network} AND block_time >= ${time}`.pipe(
        Effect.orDie,
        Effect.map(([row]) => row?.number == null ? Option.none() : Option.some(BigInt(row.number)))
      ),
    // By ID (the primary key), not by time: a million wallets must not be scanned every pass.
    newWallets: (network, afterId) =>
      sql<{ last_id: string | null; first_created: Date | null }>`
        SELECT max(id)::text AS last_id, min(created_at) AS first_created FROM wallets
        WHERE id > ${afterId} AND network = ${network}`.pipe(
        Effect.orDie,
        Effect.map(([row]) =>
          row?.last_id == null || row.first_created === null
            ? Option.none()
            : Option.some({ lastId: row.last_id, firstCreatedAt: row.first_created })
        )
      ),
    lastWalletId: sql<{ id: string | null }>`SELECT max(id)::text AS id FROM wallets`.pipe(
      Effect.orDie,
      Effect.map(([row]) => row?.id ?? "0")
    )
  })
})

export const layer = Layer.effect(Scanning.ScanLedger, make)
