import { Schema } from "effect"

/** A business rejection: saved with the idempotency key and replayed to a retry. */
export class CustomIdTaken extends Schema.TaggedError<CustomIdTaken>()("CustomIdTaken", {
  customId: Schema.String
}) {
  override get message() {
    return `conflict: custom_id "${this.customId}" already exists`
  }
}

export class WalletNotFound extends Schema.TaggedError<WalletNotFound>()("WalletNotFound", {
  walletId: Schema.String
}) {
  override get message() {
    return `wallet ${this.walletId} not found`
  }
}

/** The tenant holds the operator's maximum of wallets (`TENANT_MAX_WALLETS`); not saved with the key. */
export class WalletLimitReached extends Schema.TaggedError<WalletLimitReached>()("WalletLimitReached", {
  limit: Schema.Number
}) {
  override get message() {
    return `conflict: the tenant holds the maximum of ${this.limit} wallets`
  }
}

/** More wallets match a selection than one may return (`maxSelection`). */
export class SelectionTooLarge extends Schema.TaggedError<SelectionTooLarge>()("SelectionTooLarge", {
  limit: Schema.Number
}) {
  override get message() {
    return `invalid request: more than ${this.limit} wallets match the filters; narrow them`
  }
}
