import { launch } from "@collector/launch"
import { describeService, ServiceLive } from "./ServiceLive.js"

launch("service", ServiceLive, { describe: describeService })
