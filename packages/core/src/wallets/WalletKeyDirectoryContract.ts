import { expect, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { tokenKey } from "./WalletKey.js"
import { WalletKeyDirectory } from "./WalletKeyDirectory.js"
import { WalletRepository } from "./WalletRepository.js"
import { StorageFixtures } from "../testing/StorageFixtures.js"

/** Which store holds each wallet's key, as the CLI lists it: per scope, by store, never a sealed blob. */
export const walletKeyDirectoryContract = <E>(name: string, storage: Layer.Layer<WalletKeyDirectory | WalletRepository | StorageFixtures, E>) =>
  layer(storage)(`WalletKeyDirectory (${name})`, (it) => {
    it.effect("lists a scope's wallets with their store and token label, by store when asked, nothing of other scopes", () =>
      Effect.gen(function*() {
        const fixtures = yield* StorageFixtures
        const directory = yield* WalletKeyDirectory
        const scope = yield* fixtures.scope("nile")
        const stranger = yield* fixtures.scope("nile")
        const local = yield* fixtures.wallet(scope, { key: { store: "local", sealed: { keyId: "k", blob: new Uint8Array([9, 9]) } } })
        const token = yield* fixtures.wallet(scope, { key: { store: "pkcs11", label: "collector-wallet-00ff" } })
        yield* fixtures.wallet(stranger, { key: { store: "pkcs11", label: "collector-wallet-0100" } })
        const all = yield* directory.list(scope)
        expect(all).toEqual([
          { walletId: local.id, address: local.address, customId: local.customId, store: "local", label: null },
          { walletId: token.id, address: token.address, customId: token.customId, store: "pkcs11", label: "collector-wallet-00ff" }
        ])
        expect((yield* directory.list(scope, "pkcs11")).map((e) => e.walletId)).toEqual([token.id])
        expect((yield* directory.list(scope, "local")).map((e) => e.walletId)).toEqual([local.id])
        expect(yield* directory.list({ tenantId: scope.tenantId, network: "main" })).toEqual([])
      }))

    it.effect("a wallet created with a token key is stored with its store and label only", () =>
      Effect.gen(function*() {
        const fixtures = yield* StorageFixtures
        const scope = yield* fixtures.scope("nile")
        const created = yield* (yield* WalletRepository).insert(scope, { customId: "hsm-1", address: "TTokenWalletAddress000000000000001", key: tokenKey("collector-wallet-beef") })
        expect(yield* (yield* WalletKeyDirectory).list(scope)).toEqual([
          { walletId: created.id, address: "TTokenWalletAddress000000000000001", customId: "hsm-1", store: "pkcs11", label: "collector-wallet-beef" }
        ])
      }))
  })
