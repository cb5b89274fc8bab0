import { launch } from "@collector/launch"
import { ApiProcessLive } from "@collector/server"

launch("service", ApiProcessLive)
