import { Data } from "effect"

/** A token that is unknown, expired or revoked; the message reveals nothing more. */
export class OperatorTokenRefused extends Data.TaggedError("OperatorTokenRefused")<{}> {
  override get message() {
    return "the operator token is unknown, expired or revoked"
  }
}

export class OperatorTokenNotFound extends Data.TaggedError("OperatorTokenNotFound")<{ readonly id: string }> {
  override get message() {
    return `no operator token ${this.id}`
  }
}
