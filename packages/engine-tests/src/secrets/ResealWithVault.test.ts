import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { Layer } from "effect"
import { randomBytes } from "node:crypto"
import { MemoryTestStorage, resealContract } from "@collector/core/testing"

// Re-sealing on the memory store with the real box: rotation only means something with master keys
// that differ (core's test box seals under one fixed key ID). The PostgreSQL run is apps/cli's.
const [a, b, c] = [0, 1, 2].map(() => MasterKey.unsafeMake(randomBytes(32))) as [MasterKey, MasterKey, MasterKey]
const box = (current: MasterKey, previous: ReadonlyArray<MasterKey> = []) =>
  AesGcmSecretBox.layer.pipe(Layer.provide(MasterKeyring.layer({ current, previous })), Layer.provide(NodeEntropy.layer))

resealContract("memory", MemoryTestStorage, { old: box(a), rotated: box(b, [a]), retired: box(b), stranger: box(c) })
