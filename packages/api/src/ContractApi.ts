import { HttpApi, OpenApi } from "@effect/platform"
import * as Errors from "./ApiErrors.js"
import { AuthApi } from "./groups/AuthApi.js"
import { DashboardApi } from "./groups/DashboardApi.js"
import { DepositsApi } from "./groups/DepositsApi.js"
import { SettingsApi } from "./groups/SettingsApi.js"
import { SweepsApi } from "./groups/SweepsApi.js"
import { SystemApi } from "./groups/SystemApi.js"
import { WalletsApi } from "./groups/WalletsApi.js"
import { WebhooksApi } from "./groups/WebhooksApi.js"

/** The one definition of the tenant contract: server, OpenAPI document and SDK derive from it. */
export class ContractApi extends HttpApi.make("collector")
  .add(SystemApi)
  .add(AuthApi)
  .add(DashboardApi)
  .add(WalletsApi)
  .add(SettingsApi)
  .add(SweepsApi)
  .add(DepositsApi)
  .add(WebhooksApi)
  .addError(Errors.InvalidArgument)
  .addError(Errors.Unauthenticated)
  .addError(Errors.TenantUnavailable)
  .addError(Errors.NotFound)
  .addError(Errors.MethodNotAllowed)
  .addError(Errors.Conflict)
  .addError(Errors.PayloadTooLarge)
  .addError(Errors.RateLimited)
  .addError(Errors.InternalError)
  .addError(Errors.ServiceUnavailable)
  .addError(Errors.RequestTimeout)
  .annotate(OpenApi.Title, "TRC20 USDT wallet and collection service")
  .annotate(OpenApi.Version, "6.0.0")
{}
