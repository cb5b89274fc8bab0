import { describe, expect, it } from "vitest"
import { ArgumentError, parseArguments } from "./Arguments.js"

describe("the simulator's command line", () => {
  it("takes every flag with its value, and caps the jobs at the runs", () => {
    const args = parseArguments(["--seed", "7", "--runs", "3", "--plant", "resign", "--jobs", "8", "--verbose", "--logs", "--expect-violations"])
    expect(args).toEqual({
      seed: 7,
      runs: 3,
      plant: "resign",
      storage: "memory",
      jobs: 3,
      verbose: true,
      logs: true,
      expectViolations: true,
      connectionCuts: "none"
    })
  })

  it("cuts PostgreSQL's connections at drawn statements, or at every run of one money step", () => {
    expect(parseArguments(["--storage", "postgres", "--connection-cuts", "drawn"]).connectionCuts).toBe("drawn")
    expect(parseArguments(["--storage", "postgres", "--connection-cuts", "deposit.book"]).connectionCuts).toEqual({ forced: "deposit.book" })
    expect(parseArguments(["--storage", "postgres"]).connectionCuts).toBe("none")
  })

  it("defaults to one run of seed 1 on the memory store", () => {
    expect(parseArguments([])).toMatchObject({ seed: 1, runs: 1, plant: undefined, storage: "memory", jobs: 1, verbose: false, logs: false })
  })

  it.each([
    [["--seeds", "1"], /unknown flag '--seeds'/],
    [["--runs", "0"], /--runs takes a whole number of at least 1, not '0'/],
    [["--runs", "2.5"], /--runs takes a whole number/],
    [["--seed"], /--seed needs a value/],
    [["--seed", "1", "--seed", "2"], /--seed is given twice/],
    [["--plant", "nonsense"], /--plant takes one of .*resign/],
    [["--storage", "disk"], /--storage takes one of memory, postgres, not 'disk'/],
    [["--plant", "resign", "--storage", "postgres"], /memory only/],
    [["--connection-cuts", "drawn"], /--connection-cuts needs --storage postgres/],
    [["--storage", "postgres", "--connection-cuts", "deposit.steal"], /--connection-cuts takes one of sweep.claim, .*, not 'deposit.steal'/],
    [["7"], /unexpected argument '7'/]
  ])("refuses %j with one line", (argv, message) => {
    expect(() => parseArguments(argv)).toThrow(ArgumentError)
    expect(() => parseArguments(argv)).toThrow(message)
  })
})
