import { launch } from "@collector/launch"
import { ApiProcess } from "@collector/server"

launch("api", ApiProcess.layerConfig(), { describe: ApiProcess.describe, ports: ApiProcess.ports })
