import type { AppId, Network, TenantId } from "@collector/core"
import { Context } from "effect"

/** The authenticated caller: the app credential decides both the tenant and the network. */
export class CurrentApp extends Context.Tag("@collector/api/CurrentApp")<
  CurrentApp,
  { readonly appId: AppId; readonly tenantId: TenantId; readonly network: Network }
>() {}
