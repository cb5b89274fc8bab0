// Uses every package through its public entry, with types, the way another project would. The
// same file must compile under NodeNext and under Bundler resolution, and run on plain node.
import * as Api from "@collector/api"
import { Engine, type Kernel, Memory, Tenants } from "@collector/core"
import * as Energy from "@collector/energy"
import * as HttpServer from "@collector/http-server"
import * as Launch from "@collector/launch"
import * as Outbound from "@collector/outbound"
import * as Postgres from "@collector/postgres"
import * as Sdk from "@collector/sdk"
import { ApiProcess, WorkerProcess } from "@collector/server"
import * as Simulation from "@collector/simulation"
import { TronAddress } from "@collector/tron"
import { defaultNodeConfig } from "@collector/tron-node"
import { defaultSimConfig, SimInProcess } from "@collector/tron-sim"
import { MasterKey } from "@collector/vault"
import { Effect } from "effect"

const network: Kernel.Network = "nile"

const program = Effect.gen(function*() {
  const sim = yield* SimInProcess.make(defaultSimConfig(network, { seed: "consumer" }))
  const node = defaultNodeConfig(network, { fullNodeUrl: sim.url, solidityUrl: sim.url })
  const key = MasterKey.unsafeMake(new Uint8Array(32).fill(7))
  const address = TronAddress.fromSecretKey(new Uint8Array(32).fill(1))
  return { simUrl: sim.url, node: node.fullNodeUrl, keyId: key.id, address, valid: TronAddress.isValidTronAddress(address) }
})

const loaded = [Api, Energy, HttpServer, Launch, Outbound, Postgres, Sdk, Simulation].map((module) => Object.keys(module).length)
const services = [Engine.Engine, Memory.MemoryStorage, Tenants.TenantAdmin, ApiProcess.layer, WorkerProcess.layer].length

Effect.runPromise(program).then((result) => {
  if (!result.valid || loaded.some((count) => count === 0)) throw new Error(`unexpected: ${JSON.stringify(result)}`)
  console.log(`consumer-types: ${loaded.length + 6} packages loaded, ${services} services named, simulator at ${result.simUrl}, address ${result.address}`)
})
