import { launch } from "@collector/launch"
import { ServiceLive } from "./ServiceLive.js"

launch("service", ServiceLive)
