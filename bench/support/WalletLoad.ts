import { TronAddress } from "@collector/tron"
import { Option } from "effect"
import { randomBytes } from "node:crypto"
import type pg from "pg"

/**
 * Bulk-loads wallets for the list benchmark. Addresses are valid TRON addresses of random
 * accounts (so the trigram index sees the real character distribution); the sealed key column
 * holds random bytes, since no benchmark signs with these wallets. Balances: a tenth unsynced, a
 * quarter zero, the rest spread over six orders of magnitude; half were collected once.
 */
export const loadWallets = async (client: pg.Client, tenantIds: ReadonlyArray<string>, perTenant: number, onProgress: (done: number) => void) => {
  const batch = 5000
  let done = 0
  for (const tenantId of tenantIds) {
    for (let start = 0; start < perTenant; start += batch) {
      const n = Math.min(batch, perTenant - start)
      const rows = {
        address: [] as Array<string>,
        customId: [] as Array<string>,
        usdt: [] as Array<string | null>,
        trx: [] as Array<string | null>,
        block: [] as Array<string>,
        collected: [] as Array<string>,
        lastCollected: [] as Array<string | null>
      }
      for (let i = 0; i < n; i++) {
        // A random 20-byte account gives the same address distribution as a real key, far faster.
        rows.address.push(Option.getOrThrow(TronAddress.fromHex(`41${randomBytes(20).toString("hex")}`)))
        rows.customId.push(`c-${start + i}`)
        const roll = Math.random()
        const synced = roll >= 0.1
        rows.usdt.push(!synced ? null : roll < 0.35 ? "0" : String(Math.floor(Math.random() * 10 ** (1 + Math.floor(Math.random() * 6))) * 1000))
        rows.trx.push(!synced ? null : String(Math.floor(Math.random() * 50_000_000)))
        rows.block.push(synced ? "70000000" : "0")
        const collected = Math.random() < 0.5
        rows.collected.push(collected ? String(Math.floor(Math.random() * 1e9)) : "0")
        rows.lastCollected.push(collected ? new Date(Date.now() - Math.floor(Math.random() * 90 * 864e5)).toISOString() : null)
      }
      await client.query(
        `WITH inserted AS (
           INSERT INTO wallets (tenant_id, network, address, custom_id, balance_usdt, balance_trx, balance_block, collected_usdt, last_collected_at)
           SELECT $1, 'nile', a, c, u, t, b, col, lc
           FROM unnest($2::text[], $3::text[], $4::numeric[], $5::numeric[], $6::bigint[], $7::numeric[], $8::timestamptz[])
             AS x(a, c, u, t, b, col, lc)
           RETURNING id)
         INSERT INTO wallet_keys (wallet_id, key_id, sealed_key) SELECT id, 'bench', $9 FROM inserted`,
        [tenantId, rows.address, rows.customId, rows.usdt, rows.trx, rows.block, rows.collected, rows.lastCollected, randomBytes(60)]
      )
      done += n
      onProgress(done)
    }
  }
}

/**
 * What the service keeps beside each scope's wallets, rebuilt after a bulk load that bypassed it:
 * the wallet counts and the running balance totals the tenant list and console read.
 */
export const rebuildScopeTotals = async (client: pg.Client) => {
  await client.query("DELETE FROM wallet_counts")
  await client.query("INSERT INTO wallet_counts (tenant_id, network, shard, n) SELECT tenant_id, network, 0, count(*) FROM wallets GROUP BY 1, 2")
  await client.query("DELETE FROM wallet_balance_totals")
  await client.query(`
    INSERT INTO wallet_balance_totals (tenant_id, network, shard, usdt, trx)
    SELECT tenant_id, network, (id % 16)::smallint, coalesce(sum(balance_usdt), 0), coalesce(sum(balance_trx), 0)
    FROM wallets GROUP BY tenant_id, network, id % 16`)
}
