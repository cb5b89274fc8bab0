import type { Network } from "@collector/core"
import { Config } from "effect"

/** `WORKER_NETWORKS`: the networks this worker watches, comma-separated (default `nile`). */
export const workerNetworksFromEnv: Config.Config<ReadonlyArray<Network>> = Config.string("WORKER_NETWORKS").pipe(
  Config.withDefault("nile"),
  Config.map((text) => [...new Set(text.split(",").map((part) => part.trim()).filter((part) => part !== ""))]),
  Config.validate({
    message: "WORKER_NETWORKS must list one or more of main, nile, comma-separated (for example nile or main,nile)",
    validation: (networks) => networks.length > 0 && networks.every((n) => n === "main" || n === "nile")
  })
) as Config.Config<ReadonlyArray<Network>>
