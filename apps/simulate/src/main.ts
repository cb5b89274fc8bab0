import { coverageLine, replayCommand, type RunOptions, type RunResult, runMany, summarize, summaryLine, defaultRunOptions } from "@collector/simulation"
import { Effect } from "effect"
import { ArgumentError, type Arguments, parseArguments } from "./Arguments.js"
import { childVariable, serveParent } from "./ChildRuns.js"
import { databaseServer } from "./DatabaseServer.js"
import { runInChildren } from "./ParallelRuns.js"

const reporter = (args: Arguments) => (result: RunResult) => {
  if (args.verbose) {
    console.log(`seed ${result.seed}: ${result.passes} passes, ${result.changes} changes, ${result.violations.length} violations, trace ${result.trace}\n  ${result.workload}`)
  }
  if (result.violations.length === 0) return
  if (!args.verbose) console.log(`seed ${result.seed}: ${result.violations.length} violations`)
  for (const violation of result.violations) console.log(`  ${violation}`)
  console.log(`  replay: ${replayCommand(result.seed, args.plant, args.storage, args.connectionCuts)}`)
}

const simulate = (args: Arguments) =>
  Effect.gen(function*() {
    const options: RunOptions = {
      ...defaultRunOptions,
      ...(args.plant === undefined ? {} : { plant: args.plant }),
      storage: args.storage,
      logs: args.logs,
      connectionCuts: args.connectionCuts,
      ...(args.storage === "postgres" ? { databaseServer: yield* databaseServer } : {})
    }
    const report = reporter(args)
    const summary = args.jobs > 1
      ? summarize(args.seed, args.runs, yield* Effect.promise(() => runInChildren(args.seed, args.runs, args.jobs, options, report)))
      : yield* runMany(args.seed, args.runs, options, (result) => Effect.sync(() => report(result)))
    // Which statements of the money steps lost their connection, before the summary line that ends every invocation.
    if (args.storage === "postgres") for (const step of summary.connectionCuts) console.log(coverageLine(step))
    console.log(summaryLine(summary))
    const found = summary.violations > 0
    return found === args.expectViolations ? 0 : 1
  }).pipe(Effect.scoped)

const childOptions = process.env[childVariable]
if (childOptions !== undefined) {
  serveParent(JSON.parse(childOptions) as RunOptions)
} else {
  let args: Arguments | undefined
  try {
    args = parseArguments(process.argv.slice(2))
  } catch (error) {
    if (!(error instanceof ArgumentError)) throw error
    console.error(`simulate: ${error.message}`)
    process.exit(2)
  }
  Effect.runPromise(simulate(args)).then((status) => process.exit(status), (error) => {
    console.error(error)
    process.exit(2)
  })
}
