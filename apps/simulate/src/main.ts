import { defaultRunOptions, runMany } from "@collector/simulation"
import { Console, Effect } from "effect"

const argument = (name: string): string | undefined => {
  const index = process.argv.indexOf(`--${name}`)
  return index === -1 ? undefined : process.argv[index + 1]
}

const first = Number(argument("seed") ?? 1)
const runs = Number(argument("runs") ?? 1)

const program = Effect.gen(function*() {
  const summary = yield* runMany(first, runs, defaultRunOptions, (result) =>
    process.argv.includes("--verbose")
      ? Console.log(`seed ${result.seed}: ${result.passes} passes, ${result.changes} changes, ${result.violations.length} violations\n  ${result.workload}`)
      : result.violations.length === 0
      ? Effect.void
      : Console.log(`seed ${result.seed}: ${result.violations.length} violations\n  ${result.violations.join("\n  ")}`))
  yield* Console.log(`simulate: ${summary.runs} runs, seeds ${summary.first}..${summary.last}, ${summary.violations} violations, trace ${summary.trace}`)
  return summary
})

Effect.runPromise(program).then((summary) => process.exit(summary.violations === 0 ? 0 : 1), (error) => {
  console.error(error)
  process.exit(2)
})
