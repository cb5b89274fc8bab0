import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { OperatorTokenRepository } from "./OperatorTokenRepository.js"
import { dies } from "../testing/Defects.js"

const hash = (n: number) => new Uint8Array(32).fill(n)
const in2031 = new Date("2031-01-01T00:00:00.125Z")

/** What every OperatorTokenRepository must do. Each test uses its own hashes, so tests share one store. */
export const operatorTokenRepositoryContract = <E>(name: string, storage: Layer.Layer<OperatorTokenRepository, E>) =>
  layer(storage)(`OperatorTokenRepository contract (${name})`, (it) => {
    it.effect("stores a token under a new ID, its own token, and finds it by its hash as stored", () =>
      Effect.gen(function*() {
        const repo = yield* OperatorTokenRepository
        const buffer = hash(1)
        const token = yield* repo.insert(buffer, { kind: "token", tokenId: null, expiresAt: in2031 })
        buffer.fill(9)
        expect(token).toMatchObject({ kind: "token", tokenId: token.id, expiresAt: in2031, revokedAt: null })
        expect(token.id).toMatch(/^[1-9][0-9]*$/)
        expect(yield* repo.findByHash(hash(1))).toEqual(Option.some(token))
        expect(yield* repo.get(token.id)).toEqual(Option.some(token))
        expect(yield* repo.findByHash(hash(9))).toEqual(Option.none())
        expect(yield* repo.get("9223372036854775807")).toEqual(Option.none())
      }))

    it.effect("a session belongs to its token; only tokens are listed, newest first", () =>
      Effect.gen(function*() {
        const repo = yield* OperatorTokenRepository
        const older = yield* repo.insert(hash(2), { kind: "token", tokenId: null, expiresAt: in2031 })
        const newer = yield* repo.insert(hash(3), { kind: "token", tokenId: null, expiresAt: in2031 })
        const session = yield* repo.insert(hash(4), { kind: "session", tokenId: older.id, expiresAt: in2031 })
        expect(session).toMatchObject({ kind: "session", tokenId: older.id })
        expect(session.id).not.toBe(older.id)
        const listed = yield* repo.listTokens(1000)
        expect(listed.map((t) => t.id)).toContain(older.id)
        expect(listed.map((t) => t.id)).not.toContain(session.id)
        expect(listed.findIndex((t) => t.id === newer.id)).toBeLessThan(listed.findIndex((t) => t.id === older.id))
        expect((yield* repo.listTokens(1)).length).toBe(1)
      }))

    it.effect("lists the newest token first by ID as a number (token 10 before token 9)", () =>
      Effect.gen(function*() {
        const repo = yield* OperatorTokenRepository
        const token = (n: number) => repo.insert(hash(100 + n), { kind: "token", tokenId: null, expiresAt: in2031 })
        const first = yield* token(0)
        let [previous, last] = [first, first]
        for (let n = 1; last.id.length === first.id.length && n < 150; n++) [previous, last] = [last, yield* token(n)]
        expect((yield* repo.listTokens(2)).map((t) => t.id)).toEqual([last.id, previous.id])
      }))

    it.effect("revoke marks once: the first revocation time stays; an unknown ID is none", () =>
      Effect.gen(function*() {
        const repo = yield* OperatorTokenRepository
        const token = yield* repo.insert(hash(5), { kind: "token", tokenId: null, expiresAt: in2031 })
        const first = new Date("2030-05-01T00:00:00Z")
        expect(Option.map(yield* repo.revoke(token.id, first), (t) => t.revokedAt)).toEqual(Option.some(first))
        expect(Option.map(yield* repo.revoke(token.id, new Date("2030-06-01T00:00:00Z")), (t) => t.revokedAt)).toEqual(Option.some(first))
        expect(Option.map(yield* repo.findByHash(hash(5)), (t) => t.revokedAt)).toEqual(Option.some(first))
        expect(yield* repo.revoke("9223372036854775806", first)).toEqual(Option.none())
      }))

    it.effect("a hash stored already, or a session of an unknown token, is a defect and stores nothing", () =>
      Effect.gen(function*() {
        const repo = yield* OperatorTokenRepository
        const token = yield* repo.insert(hash(6), { kind: "token", tokenId: null, expiresAt: in2031 })
        expect(yield* dies(repo.insert(hash(6), { kind: "token", tokenId: null, expiresAt: in2031 }))).toBe(true)
        expect(yield* dies(repo.insert(hash(7), { kind: "session", tokenId: "9223372036854775805", expiresAt: in2031 }))).toBe(true)
        expect(yield* repo.findByHash(hash(7))).toEqual(Option.none())
        expect(yield* repo.findByHash(hash(6))).toEqual(Option.some(token))
      }))
  })
