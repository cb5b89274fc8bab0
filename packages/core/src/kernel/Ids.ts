import { Schema } from "effect"
import { Int64Id } from "./Int64Id.js"

export const TenantId = Int64Id.pipe(Schema.brand("TenantId"))
export type TenantId = typeof TenantId.Type

export const AppId = Int64Id.pipe(Schema.brand("AppId"))
export type AppId = typeof AppId.Type

export const WalletId = Int64Id.pipe(Schema.brand("WalletId"))
export type WalletId = typeof WalletId.Type
