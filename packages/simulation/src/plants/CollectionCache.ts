import { Settings } from "@collector/core"
import { Effect, Layer } from "effect"

/**
 * Planted defect `collection-cache` (the settings store): the collection setting is cached by
 * network alone (the tenant left out of the cache key), so a scope read after another one on its
 * network gets that one's collection address, and its sweeps go there.
 */
export const layer = Layer.effect(
  Settings.SettingsRepository,
  Effect.map(Settings.SettingsRepository, (real) => {
    const cache = new Map<string, { readonly address: string; readonly walletId: null }>()
    return Settings.SettingsRepository.of({
      ...real,
      get: (scope) =>
        Effect.map(real.get(scope), (stored) => {
          if (stored.collection.address === "" || stored.collection.walletId !== null) return stored
          const cached = cache.get(scope.network)
          if (cached === undefined) {
            cache.set(scope.network, { address: stored.collection.address, walletId: null })
            return stored
          }
          return { ...stored, collection: { ...stored.collection, ...cached } }
        })
    })
  })
)
