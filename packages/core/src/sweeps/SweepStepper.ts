import { Effect } from "effect"
import type { Chain } from "../chain/Chain.js"
import type { ChainRejected, ChainUnavailable } from "../chain/ChainErrors.js"
import type { DelegationLedger, DelegationMoved } from "../delegation/DelegationLedger.js"
import type { ResourceAccounts } from "../delegation/ResourceAccounts.js"
import type { EnergyProvider, ProviderUnavailable } from "../energy/EnergyProvider.js"
import type { SettingsRepository } from "../settings/SettingsRepository.js"
import type { SigningFailed, Signer } from "../wallets/WalletKeys.js"
import { SweepRepository } from "./SweepRepository.js"
import type { StepResult } from "./SweepStep.js"
import { broadcast } from "./Broadcasting.js"
import { prepare } from "./Preparation.js"
import { awaitEnergy, refreshedRental, rent } from "./Renting.js"
import { settle } from "./Settlement.js"
import { sign } from "./Signing.js"
import { lendStake } from "./StakeLending.js"
import { end } from "./SweepStep.js"
import type { ChainView } from "./ChainView.js"
import type { SweeperSettings } from "./SweeperSettings.js"
import type { SweepTask } from "./SweepTask.js"

const preparing = (task: SweepTask) => task.status === "pending" || task.status === "ready"

/**
 * Preparation, and the signature at once when it found the resources in place: the signature
 * is checked against the preparation's own reading (taken moments before, in this
 * step), and only the signed task is saved. Nothing leaves the process before that save, so a
 * failure anywhere in the step leaves the task as it was, to be prepared again. The sealed key
 * is read beside the preparation's node calls rather than after them (a step's calls follow one
 * another, and the sweeper steps a bounded number of tasks at once); its failure counts only
 * when the task is to be signed.
 */
const prepareAndSign = (task: SweepTask, now: Date, settings: SweeperSettings, view: ChainView) =>
  Effect.gen(function*() {
    const repo = yield* SweepRepository
    const [{ reading, result }, key] = yield* Effect.all([
      prepare(task, now, settings, view),
      Effect.exit(repo.signingKey(task.walletId))
    ], { concurrency: 2 })
    return result._tag === "Save" && result.task.status === "ready"
      ? yield* sign(result.task, now, settings, view, { reading, key })
      : result
  })

type Step = Effect.Effect<
  StepResult,
  ChainUnavailable | ChainRejected | ProviderUnavailable | SigningFailed | DelegationMoved,
  Chain | EnergyProvider | Signer | SweepRepository | SettingsRepository | DelegationLedger | ResourceAccounts
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
            return prepareAndSign(task, now, settings, view)
          case "renting":
            return task.energyPath === "delegated" ? lendStake(task, now, settings, view) : rent(task, now, settings)
          case "waiting_energy":
            return task.energyPath === "delegated" ? lendStake(task, now, settings, view) : awaitEnergy(task, now, settings)
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
