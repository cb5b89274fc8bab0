import { Effect } from "effect"
import type { TenantScope } from "../tenants/Scope.js"
import type { StoredSettings } from "../settings/Settings.js"
import { SettingsRepository } from "../settings/SettingsRepository.js"

/**
 * The tenants' settings as one sweeper pass sees them: each scope's read once, however many of its
 * tasks the pass prepares, as the chain view is read once. A pass lasts seconds; a change of
 * policy applies from the next one, as it would to a task claimed a moment later.
 */
export const passSettings = Effect.gen(function*() {
  const repo = yield* SettingsRepository
  const scopes = new Map<string, TenantScope>()
  const read = yield* Effect.cachedFunction((key: string): Effect.Effect<StoredSettings> => repo.get(scopes.get(key)!))
  return SettingsRepository.of({
    ...repo,
    get: (scope) =>
      Effect.suspend(() => {
        const key = `${scope.tenantId}/${scope.network}`
        scopes.set(key, scope)
        return read(key)
      })
  })
})
