import type { Kernel } from "@collector/core"
import { Context } from "effect"

/** The authenticated caller: the app credential decides both the tenant and the network. */
export class CurrentApp extends Context.Tag("@collector/api/CurrentApp")<
  CurrentApp,
  { readonly appId: Kernel.AppId; readonly tenantId: Kernel.TenantId; readonly network: Kernel.Network }
>() {}
