import { randomBytes } from "node:crypto"
import { LocalSigner } from "@collector/tron"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { describe, expect, it } from "@effect/vitest"
import { Layer } from "effect"
import * as Pkcs11Signer from "./Pkcs11Signer.js"
import * as Pkcs11Token from "./Pkcs11Token.js"
import * as Pkcs11WalletKeys from "./Pkcs11WalletKeys.js"
import { keyStoreContract } from "./testing/KeyStoreContract.js"
import { createTestToken, skipReason, softHsmInstalled } from "./testing/SoftHsmToken.js"

const box = AesGcmSecretBox.layer.pipe(
  Layer.provide(MasterKeyring.layer({ current: MasterKey.unsafeMake(randomBytes(32)) })),
  Layer.provideMerge(NodeEntropy.layer)
)

if (softHsmInstalled) {
  const token = createTestToken()
  const tokenLayer = Layer.orDie(Pkcs11Token.layer(token.settings))
  keyStoreContract(
    "PKCS#11 (SoftHSM2)",
    "pkcs11",
    Layer.mergeAll(Pkcs11WalletKeys.layer(), Pkcs11Signer.layer(LocalSigner.layer.pipe(Layer.provide(box)))).pipe(
      Layer.provide(Layer.merge(tokenLayer, NodeEntropy.layer))
    )
  )
} else {
  describe("key store contract: PKCS#11 (SoftHSM2)", () => {
    it.skip(skipReason, () => expect(softHsmInstalled).toBe(false))
  })
}
