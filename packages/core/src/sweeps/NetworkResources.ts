import { Context, Effect } from "effect"
import type { ChainService } from "../chain/Chain.js"
import { ChainUnavailable } from "../chain/ChainErrors.js"
import type { EnergyProviderService } from "../energy/EnergyProvider.js"
import { noEnergyProvider } from "../energy/NoEnergyProvider.js"
import type { Network } from "../kernel/Network.js"

/**
 * Port: the chain and the energy provider of each network, for operations that serve every
 * network from one process (the API server's sweep estimate). The worker, which runs one set
 * of loops per network, gets its Chain and EnergyProvider directly instead.
 */
export class NetworkResources extends Context.Tag("@collector/core/NetworkResources")<
  NetworkResources,
  {
    readonly chain: (network: Network) => Effect.Effect<ChainService>
    readonly energyProvider: (network: Network) => Effect.Effect<EnergyProviderService>
  }
>() {}

const unconfiguredChain = (network: Network): ChainService => {
  const down = Effect.fail(new ChainUnavailable({ reason: `no TRON node configured for ${network}` }))
  return {
    headBlock: down,
    solidifiedBlock: down,
    blockTransfers: () => down,
    account: () => down,
    balances: () => down,
    usdtBalance: () => down,
    trxBalance: () => down,
    resources: () => down,
    parameters: down,
    isBlackListed: () => down,
    estimateTransferEnergy: () => down,
    buildUsdtTransfer: () => down,
    broadcast: () => down,
    receipt: () => down,
    stakeTotals: () => down,
    energyStake: () => down,
    delegatableEnergyStake: () => down,
    lentEnergyStake: () => down,
    buildEnergyLoan: () => down,
    buildEnergyReclaim: () => down,
    buildStake: () => down,
    buildUnstake: () => down
  }
}

/** No node and no provider anywhere: every chain call is unavailable, every rental refused. */
export const unconfiguredNetworkResources: NetworkResources["Type"] = {
  chain: (network) => Effect.succeed(unconfiguredChain(network)),
  energyProvider: () => Effect.succeed(noEnergyProvider())
}
