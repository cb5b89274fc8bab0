import { Clock, Effect, Encoding, Layer, Option } from "effect"
import { accessTokenExpired, AccessTokenRepository } from "./AccessTokenRepository.js"
import type { AppId } from "../kernel/Ids.js"
import * as RowRule from "../kernel/RowRule.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { accessTokens, apps } from "../memory/MemoryTables.js"

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const tokens = db.table(accessTokens)
  const appRows = db.table(apps)
  return AccessTokenRepository.of({
    insert: (tokenHash, appId, expiresAt) =>
      Effect.flatMap(Clock.currentTimeMillis, (millis) =>
        db.atomically(() => {
          const key = Encoding.encodeHex(tokenHash)
          if (!appRows.has(appId)) throw new Error(`access_tokens: no app ${appId}`)
          if (tokens.has(key)) throw new Error(`access_tokens: the token hash ${key} is stored already`)
          // A copy: the caller's buffer may change after the call, a stored row never does.
          tokens.put(key, { tokenHash: new Uint8Array(tokenHash), appId, expiresAt, createdAt: new Date(millis) })
        })),
    find: (tokenHash) =>
      db.atomically(() =>
        Option.map(Option.fromNullable(tokens.get(Encoding.encodeHex(tokenHash))), (token) => ({
          appId: token.appId as AppId,
          expiresAt: token.expiresAt
        }))
      ),
    deleteExpired: (now, limit) =>
      db.atomically(() => {
        const expired = [...tokens.entries()].filter(([, token]) => RowRule.holds(accessTokenExpired, token, { now }))
          .sort(([, a], [, b]) => a.expiresAt.getTime() - b.expiresAt.getTime())
          .slice(0, limit)
        for (const [key] of expired) tokens.delete(key)
        return expired.length
      })
  })
})

export const layer = Layer.effect(AccessTokenRepository, make)
