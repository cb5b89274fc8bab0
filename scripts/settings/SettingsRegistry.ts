import { Balances, Delegation, Engine, Kernel, Notifications, Retention, Scanning, Setting, Sweeps, Tenants } from "@collector/core"
import { energyProviderSettings, sharedEnergyProviderSettings } from "@collector/energy"
import { gateSettingDeclarations } from "@collector/http-server"
import { launchSettings, tracingSettings } from "@collector/launch"
import { webhookDeliverySettings } from "@collector/outbound"
import { Pkcs11Settings } from "@collector/pkcs11"
import { databaseSettings } from "@collector/postgres"
import { ApiProcess, embeddedMainnetAllowed, KeyStore, operatorSettings, WorkerProcess } from "@collector/server"
import { networkNodeSettings, nodeFailoverSettings, nodeListSettings, sharedNodeSettings } from "@collector/tron-node"
import { simServerSettings } from "@collector/tron-sim"
import { masterKeySettings } from "@collector/vault"
import { crashAtSetting } from "../../apps/worker/src/CrashPoint.js"

/**
 * Every setting of every process, grouped as the docs show them: the one place that imports every
 * package's declarations, so the generated tables (`npm run docs:config`) cannot leave one out
 * that a group names. Each group is one table between `<!-- settings:<id> -->` markers.
 */
export interface SettingsGroup {
  readonly id: string
  readonly settings: ReadonlyArray<Setting.SettingDoc>
}

/**
 * A per-network declaration family as one row: `TRON_MAIN_NODE_URL / TRON_NILE_NODE_URL`, the
 * defaults likewise when they differ. The description must be the same for every network.
 */
const perNetwork = (declarations: (network: Kernel.Network) => Iterable<unknown> | Readonly<Record<string, unknown>>): ReadonlyArray<Setting.SettingDoc> => {
  const [first, ...rest] = Kernel.allNetworks.map((network) => Setting.docsOf(declarations(network)))
  return first!.map((doc, i) => {
    const all = [doc, ...rest.map((docs) => docs[i]!)]
    const differing = all.find((other) => other.description !== doc.description)
    if (differing !== undefined) throw new Error(`${doc.name} and ${differing.name} are one setting per network but are described differently`)
    const defaults = [...new Set(all.map((other) => other.default))]
    return { name: all.map((other) => other.name).join("` / `"), default: defaults.join(" / "), description: doc.description }
  })
}

const docs = Setting.docsOf

export const settingsGroups: ReadonlyArray<SettingsGroup> = [
  {
    id: "general",
    settings: [
      ApiProcess.portSetting.setting,
      ...docs(databaseSettings),
      embeddedMainnetAllowed.setting,
      ...docs(masterKeySettings),
      KeyStore.keyStoreConfig.setting,
      ...docs(Pkcs11Settings.pkcs11Settings),
      ...docs(gateSettingDeclarations),
      ...docs(Tenants.tenantLimitsSettings),
      ...docs(launchSettings),
      Tenants.enabledConfirmationRules.setting
    ]
  },
  { id: "traces", settings: docs(tracingSettings) },
  { id: "operator", settings: [...docs(operatorSettings), ...docs(Engine.readinessSettings)] },
  {
    id: "tron-nodes",
    settings: [
      ...perNetwork((network) => [networkNodeSettings(network).nodeUrl]),
      ...perNetwork(nodeListSettings),
      ...docs(nodeFailoverSettings),
      sharedNodeSettings.allowInsecure.setting,
      ...perNetwork((network) => {
        const { apiKey, solidityUrl, usdtContract } = networkNodeSettings(network)
        return [solidityUrl, apiKey, usdtContract]
      }),
      ...docs([sharedNodeSettings.requestTimeout, sharedNodeSettings.retries, sharedNodeSettings.requestsPerSecond])
    ]
  },
  { id: "balance-sync", settings: docs(Balances.balanceSyncSettings) },
  {
    id: "worker",
    settings: [...perNetwork((network) => [Scanning.depositMinimumConfig(network)]), ...docs(Retention.recordPruningSettings), crashAtSetting.setting]
  },
  { id: "simulated-node", settings: docs(simServerSettings) },
  {
    id: "energy",
    settings: [
      ...perNetwork((network) => {
        const { apiKey, apiSecret, kind, quoteActivation, quotePrice, url } = energyProviderSettings(network)
        return [kind, url, apiKey, apiSecret, quotePrice, quoteActivation]
      }),
      sharedEnergyProviderSettings.requestTimeout.setting,
      ...perNetwork((network) => {
        const { list, merxApiKey, merxMaxPrice, merxUrl, simUrl } = energyProviderSettings(network)
        return [list, merxApiKey, merxUrl, merxMaxPrice, simUrl]
      }),
      sharedEnergyProviderSettings.coolDown.setting
    ]
  },
  { id: "webhooks", settings: [...docs(webhookDeliverySettings), ...docs(Notifications.dispatcherSettings)] },
  { id: "scanner", settings: [WorkerProcess.workerNetworks.setting, ...docs(Scanning.scanningSettings)] },
  { id: "sweeps", settings: [...docs(Sweeps.sweepSettings), ...docs(Sweeps.sweeperSettings), ...docs(Delegation.reclaimSettings), ...docs(Sweeps.automationSettings)] }
]
