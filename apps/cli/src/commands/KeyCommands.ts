import { Secrets } from "@collector/core"
import { Console, Data, Effect, Option } from "effect"
import { UsageError } from "../CliError.js"
import type { Parsed } from "./TenantCommands.js"

/** Some values could not be opened with the keys at hand: the run finished, but not everything moved. */
export class ResealIncomplete extends Data.TaggedError("ResealIncomplete")<{ readonly message: string }> {}

const defaultBatchSize = 500

const batchSize = (parsed: Parsed) => {
  const value = parsed.values["batch-size"]
  if (value === undefined) return Effect.succeed(defaultBatchSize)
  const n = typeof value === "string" && /^[1-9][0-9]*$/.test(value.trim()) ? Number(value.trim()) : Number.NaN
  return Number.isSafeInteger(n) && n <= Secrets.maxBatchSize
    ? Effect.succeed(n)
    : Effect.fail(new UsageError({ message: `--batch-size must be a whole number from 1 to ${Secrets.maxBatchSize}, not "${String(value)}"` }))
}

const progressJson = (p: Secrets.ResealProgress) => ({
  key_id: p.keyId,
  after: p.after === null ? null : `${p.after.column}#${p.after.rowId}`,
  resealed: p.resealed,
  already_current: p.current,
  changed_meanwhile: p.changed,
  unreadable: p.unreadable
})

const statusJson = (s: Secrets.SealedStatus) => ({
  current_key_id: s.currentKeyId,
  previous_key_ids: s.previousKeyIds,
  by_key_id: s.counts.map((c) => ({ key_id: c.keyId, count: c.count, current: c.keyId === s.currentKeyId })),
  under_other_keys: s.underOtherKeys,
  previous_keys_needed: s.underOtherKeys > 0,
  reseal_in_progress: Option.match(s.progress, { onNone: () => null, onSome: progressJson })
})

const statusLines = (s: Secrets.SealedStatus) => [
  `current master key: ${s.currentKeyId}`,
  ...s.counts.map((c) => `  ${c.keyId}: ${c.count} sealed value${c.count === 1 ? "" : "s"}${c.keyId === s.currentKeyId ? " (current)" : ""}`),
  s.underOtherKeys === 0
    ? s.previousKeyIds.length > 0
      ? "No value is sealed under an older key any more: MASTER_KEY_PREVIOUS can be removed."
      : "Every value is sealed under the current key."
    : `${s.underOtherKeys} value${s.underOtherKeys === 1 ? " is" : "s are"} sealed under another key: run \`keys reseal\` (keep that key in MASTER_KEY_PREVIOUS until then).`,
  ...Option.match(s.progress, {
    onNone: () => [],
    onSome: (p) => [`A re-seal under ${p.keyId} stopped after ${p.after === null ? "nothing" : `${p.after.column} row ${p.after.rowId}`}: run \`keys reseal\` to go on.`]
  })
]

const status = (parsed: Parsed) =>
  Effect.gen(function*() {
    const s = yield* (yield* Secrets.Resealer).status
    yield* Console.log(parsed.values.json === true ? JSON.stringify(statusJson(s)) : statusLines(s).join("\n"))
  })

/**
 * Re-seals every stored value under the current master key, in batches, printing a progress line
 * per batch (to stderr with --json, so stdout keeps the one JSON report). Safe to interrupt and
 * run again: it goes on from the last stored batch.
 */
const reseal = (parsed: Parsed) =>
  Effect.gen(function*() {
    const size = yield* batchSize(parsed)
    const json = parsed.values.json === true
    const resealer = yield* Secrets.Resealer
    const say = (line: string) => json ? Console.error(line) : Console.log(line)
    const report = yield* resealer.reseal({
      batchSize: size,
      onProgress: (p) =>
        say(`resealed ${p.resealed}, already current ${p.current}, changed meanwhile ${p.changed}, unreadable ${p.unreadable} (up to ${p.after!.column} row ${p.after!.rowId})`)
    })
    const after = yield* resealer.status
    if (json) yield* Console.log(JSON.stringify({ ...progressJson(report), resumed: report.resumed, status: statusJson(after) }))
    else {
      yield* Console.log(`Re-sealed ${report.resealed} value${report.resealed === 1 ? "" : "s"} under ${report.keyId}${report.resumed ? " (resumed)" : ""}; ${report.current} already were.`)
      yield* Console.log(statusLines(after).join("\n"))
    }
    if (report.unreadable > 0) {
      return yield* new ResealIncomplete({
        message: `${report.unreadable} value${report.unreadable === 1 ? "" : "s"} could not be opened with MASTER_KEY or MASTER_KEY_PREVIOUS and stay as they are: add the key that sealed them to MASTER_KEY_PREVIOUS and run again`
      })
    }
  })

export const keyCommands = { status, reseal } as const
