import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authenticated } from "../Authenticated.js"
import { Ok } from "../Envelope.js"
import { Amount, Timestamp } from "../Fields.js"
import { Network } from "./WalletsApi.js"

export const EngineEntry = Schema.Struct({
  component: Schema.String,
  status: Schema.String,
  detail: Schema.String,
  updated_at: Timestamp
})

export const Dashboard = Schema.Struct({
  wallet_count: Schema.Int,
  unsynced_wallet_count: Schema.Int,
  balance_usdt: Amount,
  balance_trx: Amount,
  collected_usdt: Amount,
  deposit_usdt: Amount,
  pending_tasks: Schema.Int,
  engine: Schema.Array(EngineEntry),
  network: Network
})

export class DashboardApi extends HttpApiGroup.make("dashboard")
  .add(
    HttpApiEndpoint.get("getDashboard", "/open/v1/dashboard")
      .addSuccess(Ok(Dashboard))
      .annotate(OpenApi.Summary, "Account overview")
      .annotate(
        OpenApi.Description,
        "Computed from stored state. Balances are the sum of synchronised balances (unsynced wallets count as 0); the collection wallet's " +
          "included when the collection address is one of the tenant's wallets; deposit_usdt is the sum of the network's " +
          "confirmed deposit records (a reverted one no longer counts, and the service's own sweeps into such a collection " +
          "wallet are no deposits). engine lists the service " +
          "components: `api` and `database`, then one entry per worker component that reported for the calling network (for " +
          "example `scanner`, `balance_sync`) with the status it reported (ok, degraded or stopped) and updated_at the time of " +
          "that report, and a fixed reason of that status as detail (`running`; `running with a problem; the operator has the details`; " +
          "`stopped; the operator has the details`), never the component's own words; a report older than 60 s shows status `stale` " +
          "(`not heard from within the last minute`). " +
          "When no worker has ever reported for the network, one entry `worker` with status `stopped` stands for them. engine " +
          "says nothing about any transfer."
      )
  )
  .middleware(Authenticated)
{}
