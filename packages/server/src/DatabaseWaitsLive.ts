import { Engine } from "@collector/core"
import { isDatabaseUnavailable } from "@collector/http-server"

/**
 * Which components of this process wait for PostgreSQL, told from a bug by the driver's errors
 * (the ones the API answers 503 for). One value for the module, so the API and the worker of one
 * process (`npm start`) built together share one record, and `/readyz` names both.
 */
export const processDatabaseWaits = Engine.DatabaseWaits.layer(isDatabaseUnavailable)
