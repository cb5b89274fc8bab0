import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { AccessTokenRepository } from "./AccessTokenRepository.js"
import type { AppId } from "../kernel/Ids.js"
import { dies } from "../testing/Defects.js"
import { StorageFixtures } from "../testing/StorageFixtures.js"

const hash = (n: number) => new Uint8Array(32).fill(n)

/**
 * What every AccessTokenRepository must do. Tokens of the other tests expire in 2031, after every
 * `now` the expiry test passes, so that its counts are exact in the shared store.
 */
export const accessTokenRepositoryContract = <E>(name: string, storage: Layer.Layer<AccessTokenRepository | StorageFixtures, E>) =>
  layer(storage)(`AccessTokenRepository contract (${name})`, (it) => {
    it.effect("finds a token by its hash as stored, whatever the caller does with its buffer afterwards", () =>
      Effect.gen(function*() {
        const tokens = yield* AccessTokenRepository
        const { appId } = yield* (yield* StorageFixtures).scope("nile")
        const expiresAt = new Date("2031-01-01T00:00:00.125Z")
        const buffer = hash(1)
        yield* tokens.insert(buffer, appId as AppId, expiresAt)
        buffer.fill(2)
        expect(yield* tokens.find(hash(1))).toEqual(Option.some({ appId, expiresAt }))
        expect(yield* tokens.find(hash(2))).toEqual(Option.none())
        expect(yield* tokens.find(new Uint8Array(0))).toEqual(Option.none())
      }))

    it.effect("deleteExpired removes the tokens expiring at or before now and counts them", () =>
      Effect.gen(function*() {
        const tokens = yield* AccessTokenRepository
        const { appId } = yield* (yield* StorageFixtures).scope("main")
        const at = (second: number) => new Date(Date.UTC(2000, 0, 1, 0, 0, second))
        for (const n of [0, 1, 2]) yield* tokens.insert(hash(10 + n), appId as AppId, at(n))
        expect(yield* tokens.deleteExpired(new Date(at(1).getTime() - 1), 100)).toBe(1)
        expect(yield* tokens.deleteExpired(at(1), 100)).toBe(1)
        expect(yield* tokens.deleteExpired(at(1), 100)).toBe(0)
        const left = yield* Effect.forEach([10, 11, 12], (n) => Effect.map(tokens.find(hash(n)), Option.isSome))
        expect(left).toEqual([false, false, true])
      }))

    // Expiries before any other test's, so that the batches hold these tokens alone.
    it.effect("deleteExpired deletes at most its limit per call, the earliest expiries first", () =>
      Effect.gen(function*() {
        const tokens = yield* AccessTokenRepository
        const { appId } = yield* (yield* StorageFixtures).scope("main")
        const at = (second: number) => new Date(Date.UTC(1990, 0, 1, 0, 0, second))
        for (const n of [3, 1, 2, 0, 4]) yield* tokens.insert(hash(30 + n), appId as AppId, at(n))
        expect(yield* tokens.deleteExpired(at(4), 2)).toBe(2)
        const left = () => Effect.forEach([30, 31, 32, 33, 34], (n) => Effect.map(tokens.find(hash(n)), Option.isSome))
        expect(yield* left()).toEqual([false, false, true, true, true])
        expect(yield* tokens.deleteExpired(at(4), 2)).toBe(2)
        expect(yield* tokens.deleteExpired(at(4), 2)).toBe(1)
        expect(yield* tokens.deleteExpired(at(4), 2)).toBe(0)
        expect(yield* left()).toEqual([false, false, false, false, false])
      }))

    it.effect("a token of an unknown app, or a hash stored already, is a defect and changes nothing", () =>
      Effect.gen(function*() {
        const tokens = yield* AccessTokenRepository
        const { appId } = yield* (yield* StorageFixtures).scope("nile")
        const expiresAt = new Date("2031-02-01T00:00:00Z")
        expect(yield* dies(tokens.insert(hash(20), "9223372036854775807" as AppId, expiresAt))).toBe(true)
        expect(yield* tokens.find(hash(20))).toEqual(Option.none())
        yield* tokens.insert(hash(21), appId as AppId, expiresAt)
        expect(yield* dies(tokens.insert(hash(21), appId as AppId, new Date("2032-01-01T00:00:00Z")))).toBe(true)
        expect(yield* tokens.find(hash(21))).toEqual(Option.some({ appId, expiresAt }))
      }))
  })
