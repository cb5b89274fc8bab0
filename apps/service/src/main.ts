import { launch } from "@collector/launch"
import { ServiceLive } from "./ServiceLive"

launch("service", ServiceLive)
