import { randomBytes } from "node:crypto"
import { LocalSigner, LocalWalletKeys } from "@collector/tron"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { Layer } from "effect"
import { keyStoreContract } from "./testing/KeyStoreContract.js"

// The contract's reference run: the local store, whose keys are sealed in the database.
const box = AesGcmSecretBox.layer.pipe(
  Layer.provide(MasterKeyring.layer({ current: MasterKey.unsafeMake(randomBytes(32)) })),
  Layer.provideMerge(NodeEntropy.layer)
)

keyStoreContract("local", "local", Layer.mergeAll(LocalWalletKeys.layer, LocalSigner.layer).pipe(Layer.provide(box)))
