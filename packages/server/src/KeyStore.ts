import { ConfigValue, Engine, Kernel, Secrets, Setting, Wallets } from "@collector/core"
import { LocalSigner, LocalWalletKeys } from "@collector/tron"
import { type ConfigError, Context, Data, Duration, Effect, Layer } from "effect"

/** `KEY_STORE`: where new wallets' keys are made and kept (docs/keys.md). */
export const keyStoreConfig: Setting.Setting<Wallets.KeyStoreName> = Setting.declare({
  name: "KEY_STORE",
  default: "local",
  description:
    "Where new wallets' keys are made and kept: `local` (made in the process, sealed under `MASTER_KEY` in the database) or `pkcs11` (made and used inside a PKCS#11 token; needs the package `@collector/pkcs11` and the `PKCS11_*` settings below). Wallets keep the store they were made in, so existing local wallets keep signing after a switch. Read by the API (wallet creation) and the worker (signing); set it the same on both. See [keys.md](keys.md)."
}, (name) => ConfigValue.oneOf(name, ["local", "pkcs11"] as const))

/** What a key store is built on: the master key's box (local keys are sealed with it) and randomness. */
export type KeyStoreNeeds = Secrets.SecretBox | Kernel.Entropy

/** The configured store cannot be used: one line at start, naming what to fix. */
export class KeyStoreUnavailable extends Data.TaggedError("KeyStoreUnavailable")<{ readonly reason: string }> {
  override get message() {
    return this.reason
  }
}

/**
 * The process's key store: wallet keys for the API, the signer for the worker, and a probe for
 * readiness. Built once per process (the module behind a token may be initialised only once),
 * shared by the API and the worker when both run in one process.
 */
export class KeyStore extends Context.Tag("@collector/server/KeyStore")<
  KeyStore,
  {
    readonly name: Wallets.KeyStoreName
    /** For the start line and readiness: the store and, for a token, which one. */
    readonly description: string
    readonly walletKeys: Wallets.WalletKeys["Type"]
    readonly signer: Wallets.Signer["Type"]
    /** Fails with why the store cannot be used now. */
    readonly probe: Effect.Effect<void, string>
  }
>() {}

/**
 * `KEY_STORE=local` (default): keys made here and sealed in the database. `KEY_STORE=pkcs11`:
 * keys made and used inside a PKCS#11 token; the adapter's package (and its native addon) is
 * imported only then, so a deployment without an HSM never loads it. Wallets whose keys are
 * sealed keep signing locally under either store.
 */
export const layer: Layer.Layer<KeyStore, KeyStoreUnavailable | ConfigError.ConfigError, Secrets.SecretBox | Kernel.Entropy> = Layer.unwrapScoped(
  Effect.gen(function*() {
    const name = yield* keyStoreConfig
    const box = yield* Secrets.SecretBox
    const entropy = yield* Kernel.Entropy
    const local = LocalSigner.make(box)
    if (name === "local") {
      return Layer.succeed(KeyStore, {
        name,
        description: "local (keys sealed in the database)",
        walletKeys: LocalWalletKeys.make(box, entropy),
        signer: local,
        probe: Effect.void
      })
    }
    const pkcs11 = yield* Effect.tryPromise({
      try: () => import("@collector/pkcs11"),
      catch: () => new KeyStoreUnavailable({ reason: "KEY_STORE=pkcs11 needs the package @collector/pkcs11 (npm install @collector/pkcs11; it builds the pkcs11js addon)" })
    })
    const settings = yield* pkcs11.Pkcs11Settings.pkcs11Config
    const token = yield* pkcs11.Pkcs11Token.open(settings).pipe(Effect.mapError((failed) => new KeyStoreUnavailable({ reason: failed.reason })))
    const store = {
      name,
      description: `pkcs11 ${token.description}, ${settings.sessions} sessions`,
      walletKeys: pkcs11.Pkcs11WalletKeys.make(token, settings.labelPrefix),
      signer: pkcs11.Pkcs11Signer.make(token, local),
      probe: Effect.mapError(token.probe, (failed) => `the token does not answer (${failed.returnValue})`)
    }
    return Layer.succeed(KeyStore, store)
  })
)

export const walletKeys: Layer.Layer<Wallets.WalletKeys, never, KeyStore> = Layer.effect(Wallets.WalletKeys, Effect.map(KeyStore, (store) => store.walletKeys))

export const signer: Layer.Layer<Wallets.Signer, never, KeyStore> = Layer.effect(Wallets.Signer, Effect.map(KeyStore, (store) => store.signer))

/** The key store's readiness check: the token answers within `timeout` (a local store always does). */
export const check = (store: KeyStore["Type"], timeout: Duration.DurationInput) =>
  store.probe.pipe(
    Effect.timeoutFail({ duration: timeout, onTimeout: () => `no answer within ${Duration.toMillis(timeout)} ms` }),
    Effect.match({
      onFailure: (reason): Engine.ReadinessCheck => ({ component: "key_store", ready: false, detail: `${store.description}: ${reason}` }),
      onSuccess: (): Engine.ReadinessCheck => ({ component: "key_store", ready: true, detail: store.description })
    })
  )

/** Readiness with the key store's check beside the others: a process whose token is gone cannot sign or create wallets. */
export const withReadiness = (timeout: Duration.DurationInput) =>
  <E, R>(readiness: Layer.Layer<Engine.Readiness, E, R>): Layer.Layer<Engine.Readiness, E, R | KeyStore> =>
    Layer.effect(
      Engine.Readiness,
      Effect.gen(function*() {
        const inner = yield* Engine.Readiness
        const store = yield* KeyStore
        return {
          check: Effect.map(Effect.all([inner.check, check(store, timeout)], { concurrency: 2 }), ([report, keyStore]) => Engine.readinessOf([...report.checks, keyStore]))
        }
      })
    ).pipe(Layer.provide(readiness))
