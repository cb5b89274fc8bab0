import { Option } from "effect"
import { readdirSync, readFileSync } from "node:fs"

export interface ChildrenCpu {
  /** CPU seconds of the process `pid` and its descendants (the simulated node). */
  readonly sim: number
  /** CPU seconds of this process's other descendants (the embedded PostgreSQL and its backends). */
  readonly rest: number
}

export interface ProcStat {
  readonly pid: number
  readonly ppid: number
  /** The command name. */
  readonly comm: string
  /** User and system CPU seconds (clock ticks of 10 ms). */
  readonly seconds: number
  /** The same of its children that ended and were waited for (cutime + cstime). */
  readonly reapedChildrenSeconds: number
}

/** Every process's parent, name and CPU seconds so far (Linux /proc); throws where /proc cannot be read. */
export const processTable = (): ReadonlyArray<ProcStat> =>
  readdirSync("/proc").filter((name) => /^\d+$/.test(name)).flatMap((pid) => {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, "utf8")
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ")
      return [{
        pid: Number(pid),
        ppid: Number(fields[1]),
        comm: text.slice(text.indexOf("(") + 1, text.lastIndexOf(")")),
        seconds: (Number(fields[11]) + Number(fields[12])) / 100,
        reapedChildrenSeconds: (Number(fields[13]) + Number(fields[14])) / 100
      }]
    } catch {
      // The process ended between the listing and the read.
      return []
    }
  })

/** Whether `pid` descends from `root`, in the table's parent links. */
export const descendsFrom = (table: ReadonlyArray<ProcStat>) => {
  const parent = new Map(table.map((st) => [st.pid, st.ppid]))
  return (pid: number, root: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true
    return false
  }
}

/**
 * CPU seconds used so far by this process's descendants, split into the process `simPid` (with
 * its own children) and the rest. Empty where /proc cannot be read.
 */
export const childrenCpu = (simPid: number | undefined): Option.Option<ChildrenCpu> => {
  try {
    const table = processTable()
    const under = descendsFrom(table)
    let sim = 0
    let rest = 0
    for (const st of table) {
      if (st.pid === simPid || (simPid !== undefined && under(st.pid, simPid))) sim += st.seconds
      else if (under(st.pid, process.pid)) rest += st.seconds
    }
    return Option.some({ sim, rest })
  } catch {
    return Option.none()
  }
}

/** CPU seconds used so far by the process `pid` alone, and by its descendants (an embedded PostgreSQL it started). */
export const processTreeCpu = (pid: number): { readonly own: number; readonly descendants: number } => {
  const table = processTable()
  const under = descendsFrom(table)
  let own = 0
  let descendants = 0
  for (const st of table) {
    if (st.pid === pid) own += st.seconds
    else if (under(st.pid, pid)) descendants += st.seconds
  }
  return { own, descendants }
}
