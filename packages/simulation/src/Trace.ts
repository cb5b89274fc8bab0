import type { Memory } from "@collector/core"
import { bytesToHex } from "@noble/hashes/utils.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { ChangeFeed } from "./ChangeFeed.js"

/** A value as text that is the same for the same value in every run (bigints, dates and bytes included). */
export const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) =>
    typeof v === "bigint"
      ? `${v}n`
      : v instanceof Date
      ? v.toISOString()
      : v instanceof Uint8Array
      ? bytesToHex(v)
      : v)

/**
 * The run's trace: a hash over every committed change of the store, in order, and over every
 * other event the run records (blocks mined, faults, crashes). Two runs of one seed that did the
 * same things in the same order end with the same hash.
 */
export class Trace {
  private readonly hash = sha256.create()
  private readonly encoder = new TextEncoder()
  changes = 0
  /** The same changes, for the invariants that watch them as they are committed. */
  readonly feed = new ChangeFeed()

  readonly onChange = (change: Memory.TableChange): void => {
    this.changes++
    this.record(`${change.table}|${canonical(change.key)}|${canonical(change.row)}`)
    this.feed.publish(change)
  }

  record(line: string): void {
    this.hash.update(this.encoder.encode(`${line}\n`))
  }

  digest(): string {
    return bytesToHex(this.hash.clone().digest())
  }
}
