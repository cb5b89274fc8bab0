import { mkdirSync, writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { resolve } from "node:path"

export const profileDirectory = resolve(import.meta.dirname, "../../.data/profiles")

/** Node flags that make a child process write its CPU profile under `.data/profiles` at exit. */
export const childProfileFlags = (enabled: boolean): ReadonlyArray<string> => enabled ? ["--cpu-prof", "--cpu-prof-dir", profileDirectory] : []

/**
 * A CPU profile of this process over one phase of a benchmark: `start` before it, `stop` after,
 * which writes `<name>-<pid>.cpuprofile` and returns its path. Does nothing when not enabled.
 */
export const phaseProfiler = (enabled: boolean, name: string) => {
  const session = enabled ? new Session() : undefined
  return {
    start: async () => {
      if (session === undefined) return
      session.connect()
      await session.post("Profiler.enable")
      await session.post("Profiler.start")
    },
    stop: async (): Promise<string | undefined> => {
      if (session === undefined) return undefined
      const { profile } = await session.post("Profiler.stop")
      mkdirSync(profileDirectory, { recursive: true })
      const file = `${profileDirectory}/${name}-${process.pid}.cpuprofile`
      writeFileSync(file, JSON.stringify(profile))
      session.disconnect()
      return file
    }
  }
}
