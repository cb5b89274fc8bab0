/**
 * The wallet-create benchmark's fair reference (issue 36): a wallet created by hand with the
 * libraries underneath ours and raw `pg`, no Effect, no ports. Per wallet, as ours
 * (Wallets.create over LocalWalletKeys, AesGcmSecretBox and PgWalletRepository):
 * - a secp256k1 secret key from @noble/curves (48 random bytes reduced into [1, n)), its TRON
 *   address (Base58Check of 0x41 || the last 20 bytes of keccak-256 of the uncompressed public
 *   key, @noble/hashes and @scure/base);
 * - the key sealed with AES-256-GCM under the master key in the sealed format v2 (4-byte header,
 *   12-byte random nonce, ciphertext, 16-byte tag; the key id and the place `wallet_keys`/
 *   `sealed_key`/<address> as additional data), the plaintext key zeroed afterwards;
 * - the wallet's ID drawn from its sequence, then one statement inserting the wallet, its sealed
 *   key and its sharded count under the tenant's limit: our repository's statements, text and
 *   parameters (checked by `bench/wallets.ts` against what our repository sends).
 * Left out: no tracing, no typed errors (a refused insert throws).
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { createBase58check } from "@scure/base"
import { createCipheriv, randomBytes } from "node:crypto"
import type pg from "pg"

export const drawIdStatement = "SELECT nextval(pg_get_serial_sequence('wallets', 'id'))::text AS id"

export const insertStatement = `
        WITH inserted AS (
          INSERT INTO wallets (id, tenant_id, network, address, custom_id)
          SELECT $1, $2, $3, $4, $5
          WHERE (SELECT coalesce(sum(n), 0) FROM wallet_counts WHERE tenant_id = $6) < $7
          RETURNING id, created_at
        ), keyed AS (
          INSERT INTO wallet_keys (wallet_id, store, key_id, sealed_key, key_label)
          SELECT id, $8, $9, $10, $11 FROM inserted
        ), counted AS (
          INSERT INTO wallet_counts (tenant_id, network, shard, n)
          SELECT $12, $13, floor(random() * 16)::smallint, 1 FROM inserted
          ON CONFLICT (tenant_id, network, shard) DO UPDATE SET n = wallet_counts.n + 1
        )
        SELECT id, created_at FROM inserted`

/** The insert's parameters, in our repository's order. */
export const insertValues = (scope: WalletScope, id: string, address: string, customId: string, keyId: string, blob: Uint8Array, maxWallets: number) =>
  [id, scope.tenantId, scope.network, address, customId, scope.tenantId, maxWallets, "local", keyId, blob, null, scope.tenantId, scope.network]

export interface WalletScope {
  readonly tenantId: string
  readonly network: string
}

const base58check = createBase58check(sha256)
const header = Buffer.from([0x53, 0x42, 0x00, 0x02])

/** The sealed format v2's additional data: header, then key id, table, column, row, each a 4-byte big-endian length and UTF-8 bytes. */
const additionalData = (keyId: string, address: string) =>
  Buffer.concat([header, ...[keyId, "wallet_keys", "sealed_key", address].flatMap((part) => {
    const bytes = Buffer.from(part, "utf8")
    const length = Buffer.alloc(4)
    length.writeUInt32BE(bytes.length)
    return [length, bytes]
  })])

/** A fresh key, its address and the key sealed for `wallet_keys.sealed_key` at that address. */
export const generateSealed = (master: { readonly id: string; readonly bytes: Uint8Array }) => {
  const secretKey = secp256k1.utils.randomSecretKey()
  const publicKey = secp256k1.getPublicKey(secretKey, false)
  const body = new Uint8Array(21)
  body[0] = 0x41
  body.set(keccak_256(publicKey.subarray(1)).subarray(12), 1)
  const address = base58check.encode(body)
  const nonce = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", master.bytes, nonce, { authTagLength: 16 })
  cipher.setAAD(additionalData(master.id, address))
  const blob = new Uint8Array(Buffer.concat([header, nonce, cipher.update(secretKey), cipher.final(), cipher.getAuthTag()]))
  secretKey.fill(0)
  return { address, blob }
}

/** Creates one wallet; resolves to its ID and address. */
export const createWallet = async (pool: pg.Pool, master: { readonly id: string; readonly bytes: Uint8Array }, scope: WalletScope, customId: string, maxWallets: number) => {
  const id = (await pool.query<{ id: string }>(drawIdStatement)).rows[0]!.id
  const { address, blob } = generateSealed(master)
  const inserted = await pool.query(insertStatement, insertValues(scope, id, address, customId, master.id, blob, maxWallets))
  if (inserted.rows.length === 0) throw new Error(`wallet limit of ${maxWallets} reached`)
  return { id, address }
}
