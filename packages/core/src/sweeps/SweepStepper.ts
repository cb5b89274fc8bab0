import { Effect } from "effect"
import type { Chain } from "../chain/Chain"
import type { ChainRejected, ChainUnavailable } from "../chain/ChainErrors"
import type { EnergyProvider, ProviderUnavailable } from "../energy/EnergyProvider"
import type { SettingsRepository } from "../SettingsRepository"
import type { SigningFailed, Signer } from "../WalletKeys"
import type { SweepRepository } from "./SweepRepository"
import type { StepResult } from "./SweepStep"
import { broadcast } from "./Broadcasting"
import { prepare } from "./Preparation"
import { awaitEnergy, refreshedRental, rent } from "./Renting"
import { settle } from "./Settlement"
import { sign } from "./Signing"
import { end } from "./SweepStep"
import type { ChainView } from "./ChainView"
import type { SweeperSettings } from "./SweeperSettings"
import type { SweepTask } from "./SweepTask"

const preparing = (task: SweepTask) => task.status === "pending" || task.status === "ready"

type Step = Effect.Effect<
  StepResult,
  ChainUnavailable | ChainRejected | ProviderUnavailable | SigningFailed,
  Chain | EnergyProvider | Signer | SweepRepository | SettingsRepository
>

/** The one step a task takes now, chosen by its state; the caller saves what it returns. */
export const stepOf = (task: SweepTask, now: Date, settings: SweeperSettings, view: ChainView): Step =>
  Effect.suspend((): Step => {
    if (preparing(task) && now.getTime() > task.prepareBy.getTime()) {
      const why = `preparation gave up after its time limit (${task.prepareBy.toISOString()})${task.reason === "" ? "" : `: ${task.reason}`}`
      // An order placed for the task is looked up once more, so what it cost is on record.
      return task.rental === null
        ? Effect.succeed(end(task, now, "cancelled", why))
        : Effect.map(refreshedRental(task), (rental) => end(task, now, "cancelled", why, { rental }))
    }
    switch (task.status) {
      case "pending":
        switch (task.stage) {
          case "queued":
          case "waiting_bandwidth":
            return prepare(task, now, settings, view)
          case "renting":
            return rent(task, now, settings)
          case "waiting_energy":
            return awaitEnergy(task, now, settings)
          case "ready":
            return Effect.dieMessage(`task ${task.id} is pending at stage ready`)
        }
      // falls through: every stage returns above
      case "ready":
        return sign(task, now, settings, view)
      case "signed":
        return broadcast(task, now, settings)
      case "broadcast":
      case "unknown":
        return settle(task, now, settings, view)
      default:
        return Effect.dieMessage(`task ${task.id} is already ${task.status}`)
    }
  })
