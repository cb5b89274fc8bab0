import { Option } from "effect"
import { readdirSync, readFileSync } from "node:fs"

export interface ChildrenCpu {
  /** CPU seconds of the process `pid` and its descendants (the simulated node). */
  readonly sim: number
  /** CPU seconds of this process's other descendants (the embedded PostgreSQL and its backends). */
  readonly rest: number
}

/**
 * CPU seconds used so far by this process's descendants (Linux /proc; clock ticks of 10 ms), split
 * into the process `simPid` (with its own children) and the rest. Empty where /proc cannot be read.
 */
export const childrenCpu = (simPid: number | undefined): Option.Option<ChildrenCpu> => {
  try {
    const stats = readdirSync("/proc").filter((name) => /^\d+$/.test(name)).flatMap((pid) => {
      try {
        const text = readFileSync(`/proc/${pid}/stat`, "utf8")
        const fields = text.slice(text.lastIndexOf(")") + 2).split(" ")
        return [{ pid: Number(pid), ppid: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12])) / 100 }]
      } catch {
        return []
      }
    })
    const parent = new Map(stats.map((st) => [st.pid, st.ppid]))
    const under = (pid: number, root: number): boolean => {
      for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true
      return false
    }
    let sim = 0
    let rest = 0
    for (const st of stats) {
      if (st.pid === simPid || (simPid !== undefined && under(st.pid, simPid))) sim += st.seconds
      else if (under(st.pid, process.pid)) rest += st.seconds
    }
    return Option.some({ sim, rest })
  } catch {
    return Option.none()
  }
}
