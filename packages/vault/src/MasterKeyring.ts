import { ConfigValue } from "@collector/core"
import { type Config, type ConfigError, Context, Effect, Layer, Option } from "effect"
import { resolve } from "node:path"
import { MasterKey } from "./MasterKey.js"
import { type KeyFileOptions, loadMasterKeys, type MasterKeyConfigError } from "./MasterKeyConfig.js"

export interface MasterKeys {
  /** Seals every new value. */
  readonly current: MasterKey
  /** Older keys kept only so values sealed before a rotation can still be opened. */
  readonly previous?: ReadonlyArray<MasterKey>
  /** Where the current key came from, for messages (`MASTER_KEY`, or the generated key file). */
  readonly origin?: string
}

/**
 * The master keys this process knows. Sealing always uses `current`; opening looks the key
 * up by the id stored with the sealed value, so rotation does not require re-encrypting
 * everything at once.
 */
export class MasterKeyring extends Context.Tag("@collector/vault/MasterKeyring")<
  MasterKeyring,
  {
    readonly current: MasterKey
    readonly previous: ReadonlyArray<MasterKey>
    /** Where the current key came from: `MASTER_KEY`, or the generated key file's path. */
    readonly origin: string
    readonly find: (keyId: string) => Option.Option<MasterKey>
  }
>() {
  static make(keys: MasterKeys): MasterKeyring["Type"] {
    const byId = new Map<string, MasterKey>()
    // Previous keys first so the current key wins should an operator list it twice.
    for (const key of keys.previous ?? []) byId.set(key.id, key)
    byId.set(keys.current.id, keys.current)
    const previous = [...byId.values()].filter((key) => key.id !== keys.current.id)
    return {
      current: keys.current,
      previous,
      origin: keys.origin ?? "the keys given",
      find: (keyId) => Option.fromNullable(byId.get(keyId))
    }
  }

  /** A fixed keyring, for tests and tools that already hold the keys. */
  static layer(keys: MasterKeys): Layer.Layer<MasterKeyring> {
    return Layer.succeed(MasterKeyring, MasterKeyring.make(keys))
  }

  /**
   * The keyring from MASTER_KEY / MASTER_KEY_PREVIOUS, or, in embedded mode, from
   * `<dataDir>/master.key` (generated on first start; `dataDir` is DATA_DIR by default). See
   * MasterKeyConfig for the rules.
   */
  static layerConfig(
    dataDir: Config.Config<string> = ConfigValue.dataDir,
    options: KeyFileOptions = {}
  ): Layer.Layer<MasterKeyring, MasterKeyConfigError | ConfigError.ConfigError> {
    return Layer.effect(MasterKeyring, Effect.flatMap(dataDir, (dir) => Effect.map(loadMasterKeys(resolve(dir), options), MasterKeyring.make)))
  }
}
