/**
 * `npm run bench:quick`: every benchmark with a fair reference (docs/benchmarks.md, "Fair
 * references (issue 21)"), on small data, one after another, then one line per goal:
 * `RATIO <name> <ours>/<reference> = <percent>%` or `LATENCY <name> p99 <ms> ms`, taken from what
 * each benchmark printed. A goal no benchmark measures yet prints `MISSING <name>` (and the exit
 * status is 1), so the list always has all eleven lines. Full runs are the individual `bench:*`
 * scripts at their default sizes. BENCH_QUICK_ONLY=api,wallets,... runs a subset.
 */
import { spawn } from "node:child_process"
import { cpus, totalmem } from "node:os"
import { repositoryRoot, sourceArgs } from "../test-support/Processes.js"

interface Run {
  readonly name: string
  readonly script: string
  readonly env: Record<string, string>
}

const runs: ReadonlyArray<Run> = [
  { name: "api", script: "bench/api-throughput.ts", env: { BENCH_SECONDS: "3" } },
  { name: "wallets", script: "bench/wallets.ts", env: { BENCH_WALLETS: "100000", BENCH_SECONDS: "3", BENCH_CREATIONS: "2000" } },
  { name: "deliveries", script: "bench/deliveries.ts", env: { BENCH_EVENTS: "2000" } },
  { name: "sweeps", script: "bench/sweeps.ts", env: { BENCH_SWEEPS: "300" } },
  { name: "deposits", script: "bench/deposits.ts", env: { BENCH_WALLETS: "10000", BENCH_BLOCKS: "20", BENCH_ROUNDS: "2", BENCH_CLIENTS: "node" } },
  { name: "deposit-latency", script: "bench/deposit-latency.ts", env: { BENCH_DEPOSIT_BLOCKS: "12" } }
]

const goals = [
  "RATIO api-wallet-detail",
  "RATIO api-token",
  "RATIO api-list-default",
  "RATIO api-list-filter",
  "RATIO deliveries",
  "RATIO sweeps",
  "RATIO wallet-create",
  "RATIO deposits-catchup",
  "LATENCY api-list-half-load",
  "LATENCY deposit-booked",
  "LATENCY deposit-first-post"
]

const only = process.env.BENCH_QUICK_ONLY?.split(",")
const started = Date.now()

/** Runs one benchmark as its own process, its output passed through, and returns what it printed. */
const runOne = (run: Run) =>
  new Promise<{ readonly output: string; readonly code: number | null }>((done) => {
    console.log(`== bench:quick ${run.name}: ${run.script} ${Object.entries(run.env).map(([k, v]) => `${k}=${v}`).join(" ")}`)
    const child = spawn(process.execPath, [...sourceArgs, run.script], {
      cwd: repositoryRoot,
      env: { ...process.env, ...run.env },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let output = ""
    child.stdout.on("data", (chunk) => {
      output += chunk
      process.stdout.write(chunk)
    })
    child.once("exit", (code) => done({ output, code }))
  })

const printed: Array<string> = []
const failed: Array<string> = []
for (const run of runs.filter((r) => only === undefined || only.includes(r.name))) {
  const { code, output } = await runOne(run)
  if (code !== 0) failed.push(`${run.name} exited ${code}`)
  printed.push(...output.split("\n").filter((line) => /^(RATIO|LATENCY) /.test(line)))
}

console.log(`\nbench:quick on ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, ${Math.round((Date.now() - started) / 1000)} s`)
let missing = 0
for (const goal of goals) {
  // Ours, not the reference's line some benchmarks print beside it.
  const line = printed.find((l) => l.startsWith(goal.startsWith("LATENCY") ? `${goal} p99 ` : `${goal} `))
  if (line !== undefined) console.log(line)
  else {
    missing++
    console.log(`MISSING ${goal.split(" ")[1]}`)
  }
}
for (const failure of failed) console.log(`FAILED ${failure}`)
process.exit(missing > 0 || failed.length > 0 ? 1 : 0)
