import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { sourceArgs } from "../../test-support/Processes.js"

/** The figures of one run of bench/sweeps.ts, read from the table it prints. */
interface StoreRun {
  readonly exitCode: number
  readonly figures: Map<string, string>
}

// The rows of each run's table that the comparison reads, by a name of their own.
const patterns: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\| signing alone \(LocalSigner.*?\| (\d+) \| 100% \|$/, "local"],
  [/^\| signing in the PKCS#11 token \(SoftHSM2.*?first use\) \|.*?\| (\d+) \|/, "token first use"],
  [/^\| signing in the PKCS#11 token \(sequential, keys found\) \|.*?\| (\d+) \|/, "token found"],
  [/^\| signing in the PKCS#11 token \(\d+ sessions at once, keys found\) \|.*?\| (\d+) \|/, "token sessions"],
  [/^\| wallet creation in the token .*?\| ([\d.]+) \| \|$/, "token creation"],
  [/^\| first create to all succeeded \(wall\) \|.*?\| ([\d.]+) \|/, "sweeps wall"],
  [/^\| sweeper busy .*?\| ([\d.]+) \|/, "sweeps busy"]
]

// The table printed at the end: each row names, per run, the figure it shows. The sweeps' own
// signer is the local signer in the local run and the token in the other, so that row compares
// the two stores; the local signer measured again in the token run shows how the load moved.
const rows: ReadonlyArray<readonly [string, string, string]> = [
  ["signatures/s by the sweeps' signer (sequential; the token's keys already found)", "local", "token found"],
  ["signatures/s by the sweeps' signer on each key's first use (sequential)", "local", "token first use"],
  ["signatures/s by the sweeps' signer, 4 sessions at once", "", "token sessions"],
  ["wallets/s created with keys in the store", "", "token creation"],
  ["the local signer alone in the same run (load check), signatures/s", "local", "local"],
  ["sweeps/s, first create to all succeeded (wall)", "sweeps wall", "sweeps wall"],
  ["sweeps/s, sweeper busy (block waits excluded)", "sweeps busy", "sweeps busy"]
]

/** Keeps the figure `line` shows, if it is one of the table's rows. */
export const readFigure = (line: string, figures: Map<string, string>) => {
  for (const [pattern, name] of patterns) {
    const match = pattern.exec(line)
    if (match !== null) figures.set(name, match[1]!)
  }
}

/** The side-by-side table of the two runs' figures, as printed lines. */
export const comparison = (local: ReadonlyMap<string, string>, token: ReadonlyMap<string, string>): ReadonlyArray<string> => [
  "| measure | local | pkcs11 (SoftHSM2) | pkcs11 / local |",
  "|---|---:|---:|---:|",
  ...rows.map(([label, fromLocal, fromToken]) => {
    const a = fromLocal === "" ? undefined : local.get(fromLocal)
    const b = token.get(fromToken)
    const ratio = a !== undefined && b !== undefined ? `${((Number(b) / Number(a)) * 100).toFixed(1)}%` : ""
    return `| ${label} | ${a ?? "n/a"} | ${b ?? "n/a"} | ${ratio} |`
  })
]

const runOnce = (script: string, store: "local" | "pkcs11"): Promise<StoreRun> =>
  new Promise((resolve, reject) => {
    const args = process.argv.slice(2).filter((arg, i, all) => arg !== "--key-store" && all[i - 1] !== "--key-store")
    const child = spawn(process.execPath, [...sourceArgs, script, "--key-store", store, ...args], {
      env: { ...process.env, BENCH_KEY_STORE: store },
      stdio: ["ignore", "pipe", "inherit"]
    })
    const figures = new Map<string, string>()
    createInterface({ input: child.stdout }).on("line", (line) => {
      console.log(`[${store}] ${line}`)
      readFigure(line, figures)
    })
    child.on("error", reject)
    child.on("exit", (code) => resolve({ exitCode: code ?? 1, figures }))
  })

/**
 * `--key-store both`: the whole sweep benchmark with local keys, then with every wallet's key in a
 * SoftHSM2 token, in one invocation on the same machine and settings, then one table of the two.
 * Each run checks its own chain (every wallet swept once, nothing burned); either failing fails this.
 */
export const runBothKeyStores = async (script: string): Promise<number> => {
  const local = await runOnce(script, "local")
  const token = await runOnce(script, "pkcs11")
  console.log("\nkey stores side by side (one invocation: the local run first, then the token run)\n")
  for (const line of comparison(local.figures, token.figures)) console.log(line)
  const failed = [local, token].filter((run) => run.exitCode !== 0 || !run.figures.has("sweeps busy")).length
  if (failed > 0) console.error(`\n${failed} of the two runs failed or printed no sweep figures`)
  return failed > 0 ? 1 : 0
}
