import { Secrets } from "@collector/core"
import { PgSealedValues } from "@collector/postgres"
import { AesGcmSecretBox, MasterKeyring, NodeEntropy, wrongMasterKey } from "@collector/vault"
import { Effect, Layer, Option } from "effect"

/**
 * Checks at start, before anything opens a secret, that the master keys are the store's (the key
 * check, `MasterKeyCheck`), and says whether MASTER_KEY_PREVIOUS is still needed. A wrong key
 * stops the start with one line (`WrongMasterKey`): a service that cannot open its app secrets
 * would otherwise answer every tenant 401. Needs the database (a migrated SqlClient) and the
 * MasterKeyring.
 */
export const layer = Layer.effectDiscard(Effect.gen(function*() {
  const keyring = yield* MasterKeyring
  const check = yield* Secrets.MasterKeyCheck
  const result = yield* check.verify.pipe(Effect.mapError((mismatch) => wrongMasterKey(mismatch, keyring.origin)))
  if (result.keyCheck === "created") {
    yield* Effect.log("sealed the master key check under the current master key").pipe(Effect.annotateLogs({ key_id: keyring.current.id }))
  }
  if (Option.isSome(result.underOtherKeys)) {
    yield* result.underOtherKeys.value === 0
      ? Effect.log("no value is sealed under an older master key any more: MASTER_KEY_PREVIOUS can be removed")
      : Effect.logWarning(
        `${result.underOtherKeys.value} sealed values are still under an older master key: ` +
          "run `npm run cli -- keys reseal`, then MASTER_KEY_PREVIOUS can be removed"
      )
  }
})).pipe(
  Layer.provide(Secrets.MasterKeyCheck.layer),
  Layer.provide(Layer.merge(PgSealedValues.layer, AesGcmSecretBox.layer.pipe(Layer.provide(NodeEntropy.layer))))
)
