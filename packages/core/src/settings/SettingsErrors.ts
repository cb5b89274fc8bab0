import { Schema } from "effect"

/** A rejected setting: saved with its request_id like any business rejection. */
export class SettingRejected extends Schema.TaggedError<SettingRejected>()("SettingRejected", {
  reason: Schema.String
}) {
  override get message() {
    return this.reason
  }
}
