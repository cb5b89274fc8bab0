import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { descendsFrom, processTable } from "./ProcessCpu.js"

/**
 * Linux /proc readings for bench/growth.ts: the CPU of one process tree and of the embedded
 * PostgreSQL, and a process's resident memory; and the production service process itself.
 */

export interface CpuReading {
  /** CPU seconds of the process `pid` and its descendants. */
  readonly service: number
  /** CPU seconds of this process's descendants named `postgres` (the embedded server and its backends); 0 with DATABASE_URL. */
  readonly postgres: number
  /**
   * CPU seconds of everything outside this benchmark's process tree (the machine's busy time in
   * /proc/stat less the tree's): what others ran on the same cores meanwhile.
   */
  readonly others: number
}

/** The machine's busy time so far, all cores, in seconds (user, nice, system, irq, softirq, steal). */
const machineBusy = () => {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).map(Number)
  return (user! + nice! + system! + irq! + softirq! + steal!) / 100
}

/** The CPU used so far by the process `pid` (with its descendants), by the embedded PostgreSQL, and by others. */
export const cpuNow = (pid: number): CpuReading => {
  const busy = machineBusy()
  const table = processTable()
  const descends = descendsFrom(table)
  const under = (p: number, root: number) => p === root || descends(p, root)
  let service = 0
  let postgres = 0
  let tree = 0
  for (const st of table) {
    // The children's times too: a PostgreSQL backend that ended since the last reading is counted
    // in its parent's once it was waited for, instead of vanishing.
    const seconds = st.seconds + st.reapedChildrenSeconds
    if (under(st.pid, process.pid)) tree += seconds
    if (under(st.pid, pid)) service += seconds
    else if (st.comm === "postgres" && under(st.pid, process.pid)) postgres += seconds
  }
  return { service, postgres, others: busy - tree }
}

export const cpuSince = (before: CpuReading, after: CpuReading): CpuReading => ({
  service: after.service - before.service,
  postgres: after.postgres - before.postgres,
  others: after.others - before.others
})

/** VmRSS and VmHWM (the kernel's high-water mark of the resident set) of `pid`, in MiB; 0 once it is gone. */
export const memoryOf = (pid: number) => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8")
    const kib = (field: string) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0)
    return { rss: kib("VmRSS") / 1024, hwm: kib("VmHWM") / 1024 }
  } catch {
    return { rss: 0, hwm: 0 }
  }
}

/**
 * The service as `npm start` runs it in production: `node apps/service/dist/main.js` (npm `exec`s
 * node, so this very process is what `npm start` leaves running), its output in `output` (an open
 * file descriptor). The environment is ours plus `env`; `nodeArgs` only when asked (a profile).
 */
export const startService = (entry: string, nodeArgs: ReadonlyArray<string>, env: Record<string, string>, output: number): ChildProcess =>
  spawn(process.execPath, [...nodeArgs, entry], { env: { ...process.env, ...env }, stdio: ["ignore", output, output] })

/** SIGTERM, then the exit code once it has exited; SIGKILL (and `null`) after `graceMs`. */
export const stopProcess = (child: ChildProcess, graceMs: number) =>
  new Promise<number | null>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode)
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      done(null)
    }, graceMs)
    child.once("exit", (code) => {
      clearTimeout(timer)
      done(code)
    })
    child.kill("SIGTERM")
  })
