import { launch } from "@collector/launch"
import { ApiProcess } from "@collector/server"
import { defaultSimServerSettings } from "@collector/tron-sim"
import { describeService, ServiceLive } from "./ServiceLive.js"

launch("service", ServiceLive, { describe: describeService, ports: { ...ApiProcess.ports, TRON_SIM_PORT: defaultSimServerSettings.port } })
