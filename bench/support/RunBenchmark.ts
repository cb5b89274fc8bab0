import { stopAll } from "../../test-support/Processes.js"

/**
 * Runs a benchmark's `main`: an error is printed and fails the run (exit status 1, or the status
 * `main` set); either way every child process is stopped and the process ends.
 */
export const runBenchmark = (main: () => Promise<void>) =>
  main()
    .catch((error) => {
      console.error(error)
      process.exitCode = 1
    })
    .finally(() => {
      stopAll()
      process.exit()
    })
