import { Clock, Effect, Layer, Option } from "effect"
import { compareIds } from "../kernel/Int64Id.js"
import type { OperatorCredential } from "./OperatorCredential.js"
import { OperatorTokenRepository } from "./OperatorTokenRepository.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { type OperatorCredentialRow, operatorCredentials } from "../memory/MemoryTables.js"

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i])

const credentialOf = ({ secretHash: _, ...credential }: OperatorCredentialRow): OperatorCredential => credential

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const rows = db.table(operatorCredentials)
  return OperatorTokenRepository.of({
    insert: (secretHash, credential) =>
      Effect.flatMap(Clock.currentTimeMillis, (millis) =>
        db.atomically(() => {
          if (rows.find((row) => sameBytes(row.secretHash, secretHash)) !== undefined) throw new Error("operator_credentials: the secret hash is stored already")
          const token = credential.tokenId === null ? undefined : rows.get(credential.tokenId)
          if (credential.kind === "session" && token?.kind !== "token") throw new Error(`operator_credentials: no token ${credential.tokenId}`)
          if (credential.kind === "token" && credential.tokenId !== null) throw new Error("operator_credentials: a token belongs to no token")
          const id = db.nextId("operatorCredential")
          const row: OperatorCredentialRow = {
            id,
            kind: credential.kind,
            tokenId: credential.tokenId ?? id,
            createdAt: new Date(millis),
            expiresAt: credential.expiresAt,
            revokedAt: null,
            secretHash: new Uint8Array(secretHash)
          }
          rows.put(id, row)
          return credentialOf(row)
        })),
    findByHash: (secretHash) =>
      db.atomically(() => Option.map(Option.fromNullable(rows.find((row) => sameBytes(row.secretHash, secretHash))), credentialOf)),
    get: (id) => db.atomically(() => Option.map(Option.fromNullable(rows.get(id)), credentialOf)),
    listTokens: (limit) =>
      db.atomically(() => rows.filter((row) => row.kind === "token").sort((a, b) => compareIds(b.id, a.id)).slice(0, limit).map(credentialOf)),
    revoke: (id, at) =>
      db.atomically(() => {
        const row = rows.get(id)
        if (row === undefined) return Option.none()
        return Option.some(credentialOf(row.revokedAt === null ? rows.update(id, (r) => ({ ...r, revokedAt: at })) : row))
      })
  })
})

export const layer = Layer.effect(OperatorTokenRepository, make)
