import { databaseConfig, databaseLayer, type DatabaseSettings } from "@collector/postgres"
import { MasterKeyring } from "@collector/vault"
import { Effect, Layer } from "effect"
import { processDatabaseWaits } from "./DatabaseWaitsLive.js"
import * as MasterKeyGuard from "./MasterKeyGuard.js"

/**
 * The database and the master keyring of a reference process, in the order that keeps a bad
 * setting away from the database: the database's settings are read first (`DATABASE_URL`'s syntax
 * included), then the keyring is made (`MASTER_KEY`'s presence and format), and only then does the
 * database start or connect and migrate. Then the keys are checked against the store: a wrong
 * MASTER_KEY stops the start (`MasterKeyGuard`). With it, the record of which components wait for
 * that database while it is out of reach (`/readyz`).
 */
export const processStorage = (settings: DatabaseSettings) =>
  Layer.merge(
    MasterKeyGuard.layer.pipe(Layer.provideMerge(databaseLayer(settings).pipe(Layer.provideMerge(MasterKeyring.layerConfig())))),
    processDatabaseWaits
  )

/** `processStorage` from `DATABASE_URL`, `DATA_DIR`, `EMBEDDED_PG_PORT`, ... and `MASTER_KEY`. */
export const processStorageConfig = Layer.unwrapEffect(Effect.map(databaseConfig, processStorage))
