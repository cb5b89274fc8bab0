import type { Secrets } from "@collector/core"

/**
 * The sealed value's layouts.
 *
 * Version 1 (values sealed before places were bound): nonce (12) || ciphertext || tag (16), with
 * the key id alone as additional data. Version 2: the 4-byte header below, then the same, with the
 * key id and the value's place (table, column, row) as additional data, so a value copied to
 * another row or column fails to open there.
 *
 * A version 1 value starts with its random nonce, so one in 2^32 of them starts with the header
 * too: a value that does not open as version 2 is tried as version 1 as well. Both are
 * authenticated, so the second try never opens anything the first should have refused.
 */
export const header = Uint8Array.of(0x53, 0x42, 0x00, 0x02)

export const hasHeader = (blob: Uint8Array): boolean => blob.length >= header.length && header.every((byte, i) => blob[i] === byte)

/** Version 1's additional data: the key id's UTF-8 bytes. */
export const aadV1 = (keyId: string): Buffer => Buffer.from(keyId, "utf8")

/**
 * Version 2's additional data: the header, then the key id, table, column and row, each as its
 * UTF-8 byte length (4 bytes, big-endian) and bytes. Length prefixes make it unambiguous: no two
 * different places (say row "1/2" of column "a" and row "2" of column "a/1") encode alike.
 */
export const aadV2 = (keyId: string, context: Secrets.SealContext): Buffer =>
  Buffer.concat([Buffer.from(header), ...[keyId, context.table, context.column, context.row].flatMap((part) => {
    const bytes = Buffer.from(part, "utf8")
    const length = Buffer.alloc(4)
    length.writeUInt32BE(bytes.length)
    return [length, bytes]
  })])
