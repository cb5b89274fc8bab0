import { Schema } from "effect"

export class TenantNotFound extends Schema.TaggedError<TenantNotFound>()("TenantNotFound", {
  reference: Schema.String
}) {
  override get message() {
    return `no tenant matches "${this.reference}"`
  }
}

export class TenantNameTaken extends Schema.TaggedError<TenantNameTaken>()("TenantNameTaken", {
  name: Schema.String
}) {
  override get message() {
    return `a tenant named "${this.name}" already exists`
  }
}

export class TenantHasNoApp extends Schema.TaggedError<TenantHasNoApp>()("TenantHasNoApp", {
  reference: Schema.String,
  network: Schema.String
}) {
  override get message() {
    return `tenant "${this.reference}" has no app credential on network ${this.network}`
  }
}
