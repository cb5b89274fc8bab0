import { resealContract } from "@collector/core/testing"
import { PgTestStorage } from "@collector/postgres/testing"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { Layer } from "effect"
import { randomBytes } from "node:crypto"

// The re-seal `keys reseal` runs, on PostgreSQL with the real SecretBox (the memory run is the core's).
const [a, b, c] = [0, 1, 2].map(() => MasterKey.unsafeMake(randomBytes(32))) as [MasterKey, MasterKey, MasterKey]
const box = (current: MasterKey, previous: ReadonlyArray<MasterKey> = []) =>
  AesGcmSecretBox.layer.pipe(Layer.provide(MasterKeyring.layer({ current, previous })), Layer.provide(NodeEntropy.layer))

resealContract("PostgreSQL", PgTestStorage, { old: box(a), rotated: box(b, [a]), retired: box(b), stranger: box(c) })
