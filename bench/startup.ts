/**
 * How long an operator waits for `cli --help`: the built JavaScript on plain node (the production
 * command), the same through `npm run -s cli` (npm and its up-to-date build check), the sources
 * through tsx (how the apps ran before they were built), beside bare node printing the same text
 * (the reference: a process that only starts and writes). Wall time of each run, median and max
 * of BENCH_RUNS (default 15), the variants interleaved so a busy moment hits them all. Run with
 * `npm run bench:startup` (it builds first).
 */
import { spawnSync } from "node:child_process"
import { cpus, totalmem } from "node:os"
import { repositoryRoot, sourceArgs } from "../test-support/Processes.js"

const runs = Number(process.env.BENCH_RUNS ?? 15)

const help = spawnSync(process.execPath, ["apps/cli/dist/main.js", "--help"], { cwd: repositoryRoot, encoding: "utf8" })
if (help.status !== 0) throw new Error(`cli --help exited ${help.status}: ${help.stderr}`)

const variants: ReadonlyArray<{ readonly name: string; readonly command: string; readonly args: ReadonlyArray<string> }> = [
  { name: "reference: bare node writes the same text", command: process.execPath, args: ["-e", `process.stdout.write(${JSON.stringify(help.stdout)})`] },
  { name: "node apps/cli/dist/main.js --help", command: process.execPath, args: ["apps/cli/dist/main.js", "--help"] },
  { name: "npm run -s cli -- --help", command: "npm", args: ["run", "-s", "cli", "--", "--help"] },
  { name: "sources through tsx", command: process.execPath, args: [...sourceArgs, "apps/cli/src/main.ts", "--help"] }
]

const timings = variants.map(() => [] as Array<number>)
for (let run = 0; run < runs; run++) {
  variants.forEach((variant, i) => {
    const started = performance.now()
    const result = spawnSync(variant.command, variant.args, { cwd: repositoryRoot, encoding: "utf8" })
    timings[i]!.push(performance.now() - started)
    if (result.status !== 0 || result.stdout !== help.stdout) throw new Error(`${variant.name}: exit ${result.status}, output differs`)
  })
}

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const reference = median(timings[0]!)
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}; ${runs} runs each`)
variants.forEach((variant, i) => {
  const ms = median(timings[i]!)
  console.log(`${variant.name.padEnd(46)} median ${ms.toFixed(0).padStart(5)} ms  max ${Math.max(...timings[i]!).toFixed(0).padStart(5)} ms  ${(ms / reference).toFixed(1)}× the reference`)
})
