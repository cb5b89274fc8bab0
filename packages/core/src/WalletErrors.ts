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
