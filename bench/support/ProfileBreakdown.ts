import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string }
}

interface CpuProfile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/** Where a sampled function lives, from its script's URL: the layers a request passes through. */
const categoryOf = (frame: ProfileNode["callFrame"]): string => {
  const { functionName, url } = frame
  if (functionName === "(garbage collector)") return "garbage collection"
  if (functionName === "(idle)") return "idle"
  if (functionName === "(program)" || url === "") return "native (V8, libuv, syscalls)"
  if (url.startsWith("node:")) return "Node core (http, net, streams, crypto)"
  if (/\/node_modules\/effect\/.*\/(schema|Schema|ParseResult|SchemaAST)/.test(url)) return "effect Schema (decode, encode)"
  if (url.includes("/node_modules/effect/")) return "effect runtime (fibers, context, layers)"
  if (url.includes("/node_modules/@effect/platform")) return "@effect/platform HTTP"
  if (url.includes("/node_modules/@effect/sql")) return "@effect/sql"
  if (/\/node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//.test(url)) return "pg driver"
  if (url.includes("/packages/http-server/")) return "ours: http-server (gate, handlers)"
  if (url.includes("/packages/api/")) return "ours: api (signature, contract schemas)"
  if (url.includes("/packages/postgres/")) return "ours: postgres adapters"
  if (url.includes("/packages/")) return "ours: other packages"
  if (url.includes("/bench/")) return "the reference's own code"
  return "other libraries"
}

/**
 * Self time in milliseconds per category of one `.cpuprofile`, counting only the samples inside
 * `windows`: milliseconds since the profile began (the process's start), such as the measured
 * rows of a benchmark, so that start-up and warm-up are left out.
 */
export const profileBreakdown = (file: string, windows: ReadonlyArray<readonly [number, number]>): Map<string, number> => {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile
  const byId = new Map(profile.nodes.map((node) => [node.id, categoryOf(node.callFrame)]))
  const totals = new Map<string, number>()
  let at = 0
  profile.samples.forEach((id, i) => {
    const delta = (profile.timeDeltas[i] ?? 0) / 1000
    at += delta
    if (!windows.some(([from, to]) => at >= from && at <= to)) return
    const category = byId.get(id) ?? "other libraries"
    totals.set(category, (totals.get(category) ?? 0) + delta)
  })
  return totals
}

/** The profile Node wrote for process `pid` under `directory` (`--cpu-prof` names files `CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile`). */
export const profileOf = (directory: string, pid: number): string | undefined => {
  const name = readdirSync(directory).find((file) => file.endsWith(".cpuprofile") && file.split(".")[3] === String(pid))
  return name === undefined ? undefined : join(directory, name)
}

/** One server's measured rows: its profile, the rows' windows (ms since its start) and the requests they served. */
export interface ProfiledServer {
  readonly pid: number
  readonly windows: ReadonlyArray<readonly [number, number]>
  readonly requests: number
}

/**
 * Prints self time per request and layer of ours beside the reference's, over the measured rows
 * only (start-up and warm-up left out), idle time left out; `directory` holds both `--cpu-prof` files.
 */
export const printLayerBreakdown = (directory: string, title: string, ours: ProfiledServer, reference: ProfiledServer) => {
  const files = [profileOf(directory, ours.pid), profileOf(directory, reference.pid)]
  if (files[0] === undefined || files[1] === undefined) return console.log(`no CPU profile found under ${directory}`)
  printPerRequest(
    `${title}: CPU per request by layer, µs (self time in each server's profile over its measured rows, divided by the ${ours.requests} and ${reference.requests} requests they served):`,
    { totals: profileBreakdown(files[0], ours.windows), requests: ours.requests },
    { totals: profileBreakdown(files[1], reference.windows), requests: reference.requests }
  )
}

/** One phase profiled inside the benchmark's own process (`phaseProfiler`): its file, which covers the phase only, and the requests it served. */
export interface ProfiledPhase {
  readonly file: string
  readonly requests: number
}

/**
 * Prints self time per request and layer of two phases of one process (ours and the reference,
 * run one after the other), each over its whole profile, idle time left out.
 */
export const printPhaseBreakdown = (title: string, ours: ProfiledPhase, reference: ProfiledPhase) => {
  const everything = [[0, Number.POSITIVE_INFINITY] as const]
  printPerRequest(
    `${title}: CPU per request by layer, µs (self time in each phase's profile, divided by the ${ours.requests} and ${reference.requests} requests it served):`,
    { totals: profileBreakdown(ours.file, everything), requests: ours.requests },
    { totals: profileBreakdown(reference.file, everything), requests: reference.requests }
  )
}

interface LayerTotals {
  /** Self time by layer, ms. */
  readonly totals: ReadonlyMap<string, number>
  readonly requests: number
}

/** The table of both sides' self time per request by layer (µs), ours' largest first, idle left out. */
const printPerRequest = (heading: string, ours: LayerTotals, reference: LayerTotals) => {
  const rows = [ours, reference]
  const categories = [...new Set(rows.flatMap((r) => [...r.totals.keys()]))].filter((c) => c !== "idle")
  categories.sort((a, b) => (ours.totals.get(b) ?? 0) - (ours.totals.get(a) ?? 0))
  const perRequest = (row: LayerTotals, ms: number) => ((ms * 1000) / row.requests).toFixed(1)
  console.log(`\n${heading}`)
  console.log("| layer | ours | reference |")
  console.log("|---|---:|---:|")
  for (const category of categories) {
    console.log(`| ${category} | ${perRequest(ours, ours.totals.get(category) ?? 0)} | ${perRequest(reference, reference.totals.get(category) ?? 0)} |`)
  }
  const total = (row: LayerTotals) => perRequest(row, [...row.totals].filter(([c]) => c !== "idle").reduce((sum, [, ms]) => sum + ms, 0))
  console.log(`| total | ${total(ours)} | ${total(reference)} |`)
}
