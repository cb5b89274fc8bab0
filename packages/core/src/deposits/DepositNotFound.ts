import { Schema } from "effect"

/** No deposit with this ID in the caller's scope: absent, another tenant's, or the other network's alike. */
export class DepositNotFound extends Schema.TaggedError<DepositNotFound>()("DepositNotFound", {
  depositId: Schema.String
}) {
  override get message() {
    return `deposit ${this.depositId} not found`
  }
}
