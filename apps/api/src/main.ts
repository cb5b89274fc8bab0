import { launch } from "@collector/launch"
import { ApiProcess } from "@collector/server"

launch("service", ApiProcess.layerConfig())
