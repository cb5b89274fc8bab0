import { Config } from "effect"
import { balanceSyncConfig, type BalanceSyncSettings, defaultBalanceSyncSettings } from "../balances/BalanceSyncSettings.js"
import { defaultReclaimSettings, reclaimConfig, type ReclaimSettings } from "../delegation/ReclaimSettings.js"
import { defaultDispatcherSettings, dispatcherConfig, type DispatcherSettings } from "../notifications/DispatcherSettings.js"
import type { ScannerLoopSettings } from "../scanning/ScannerLoopSettings.js"
import type { ScannerSettings } from "../scanning/ScannerSettings.js"
import { defaultScanningSettings, scanningConfig } from "../scanning/ScanningSettings.js"
import { automationConfig, type AutomationSettings, defaultAutomationSettings } from "../sweeps/AutomationSettings.js"
import { defaultSweeperSettings, sweeperConfig, type SweeperSettings } from "../sweeps/SweeperSettings.js"
import { defaultSweepSettings, sweepSettingsConfig, type SweepSettingsShape } from "../sweeps/SweepSettings.js"
import type { Checkpoint } from "./Checkpoint.js"

/** Everything one network's engine is built with. */
export interface EngineSettings {
  readonly scanner: ScannerSettings
  readonly loop: ScannerLoopSettings
  readonly balances: BalanceSyncSettings
  readonly sweeper: SweeperSettings
  readonly automation: AutomationSettings
  readonly dispatcher: DispatcherSettings
  /** Taking back the energy lent from the own stake once its sweep is finished. */
  readonly reclaim: ReclaimSettings
  /** The sweep operations' settings, for the tasks the automation creates. */
  readonly sweeps: SweepSettingsShape
  /**
   * Names this process in the scanner's lease and the sweeper's and notifier's claims (the
   * worker gives `host/pid`); each engine adds a random part of its own.
   */
  readonly processName: string
  /** The crash tests' fault injection; absent in production. */
  readonly checkpoint?: Checkpoint
}

export const defaultEngineSettings: EngineSettings = {
  ...defaultScanningSettings,
  balances: defaultBalanceSyncSettings,
  sweeper: defaultSweeperSettings,
  automation: defaultAutomationSettings,
  dispatcher: defaultDispatcherSettings,
  reclaim: defaultReclaimSettings,
  sweeps: defaultSweepSettings,
  processName: "engine"
}

/**
 * The `SCAN_*`, `BALANCE_SYNC_*`, `SWEEP_*`, `AUTOMATION_*`, `NOTIFIER_*` and `RECLAIM_*` variables and
 * `SWEEP_PREPARATION_HOURS`; the process name and the checkpoint are the caller's.
 */
export const engineConfig: Config.Config<EngineSettings> = Config.all({
  scanning: scanningConfig,
  balances: balanceSyncConfig,
  sweeper: sweeperConfig,
  automation: automationConfig,
  dispatcher: dispatcherConfig,
  reclaim: reclaimConfig,
  sweeps: sweepSettingsConfig
}).pipe(Config.map(({ scanning, ...rest }) => ({ ...defaultEngineSettings, ...scanning, ...rest })))
