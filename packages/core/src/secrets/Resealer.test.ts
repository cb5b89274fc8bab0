import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { Layer } from "effect"
import { randomBytes } from "node:crypto"
import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"
import { resealContract } from "../testing/ResealContract.js"

const [a, b, c] = [0, 1, 2].map(() => MasterKey.unsafeMake(randomBytes(32))) as [MasterKey, MasterKey, MasterKey]
const box = (current: MasterKey, previous: ReadonlyArray<MasterKey> = []) =>
  AesGcmSecretBox.layer.pipe(Layer.provide(MasterKeyring.layer({ current, previous })), Layer.provide(NodeEntropy.layer))

resealContract("memory", MemoryTestStorage, { old: box(a), rotated: box(b, [a]), retired: box(b), stranger: box(c) })
