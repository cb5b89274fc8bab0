import { Effect } from "effect"

/**
 * Called by the sweeper around every save (`before:<status>/<stage>`, `after:<status>/<stage>`),
 * by the automation once it claimed a round (`automation:claimed`) and by the notifier once a
 * claim started attempts (`delivery:claimed`). Production passes nothing; the crash tests kill
 * the process there.
 */
export type Checkpoint = (point: string) => Effect.Effect<void>

export const noCheckpoint: Checkpoint = () => Effect.void
