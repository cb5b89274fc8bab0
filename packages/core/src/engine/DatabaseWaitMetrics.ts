import { gaugeFamily } from "../metrics/MetricFamily.js"

/**
 * 1 while a component of this process waits for the database, 0 once it reached it again
 * (`DatabaseWaits`); a series appears with its component's first wait. `network` is empty for the API.
 */
export const databaseWaiting = gaugeFamily(
  "collector_database_waiting",
  "1 while the component waits for the database (it met the database out of reach and has not reached it since), 0 after",
  ["component", "network"]
)
