import { launch } from "@collector/launch"
import { ApiServiceLive } from "./ApiServiceLive"

launch("service", ApiServiceLive)
