import { Duration } from "effect"
import type { SweepTask, TerminalSweepStatus } from "./SweepTask.js"

/** What one step decided: a new non-terminal state to save, or the terminal one with its event. */
export type StepResult =
  | { readonly _tag: "Save"; readonly task: SweepTask }
  | { readonly _tag: "Finish"; readonly task: SweepTask & { readonly status: TerminalSweepStatus } }

/** The task moved on (or waits): saved, looked at again after `wait`. */
export const proceed = (task: SweepTask, now: Date, changes: Partial<SweepTask>, wait: Duration.Duration = Duration.zero): StepResult => ({
  _tag: "Save",
  task: { ...task, ...changes, updatedAt: now, nextStepAt: new Date(now.getTime() + Duration.toMillis(wait)) }
})

/** Nothing changed but when to look again; `updatedAt` stays, since the tenant sees no change. */
export const later = (task: SweepTask, now: Date, wait: Duration.Duration, changes: Partial<SweepTask> = {}): StepResult => ({
  _tag: "Save",
  task: { ...task, ...changes, nextStepAt: new Date(now.getTime() + Duration.toMillis(wait)) }
})

export const end = (task: SweepTask, now: Date, status: TerminalSweepStatus, reason: string, changes: Partial<SweepTask> = {}): StepResult => ({
  _tag: "Finish",
  task: { ...task, ...changes, status, reason, updatedAt: now, nextStepAt: now }
})
