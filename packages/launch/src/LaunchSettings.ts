import type { Setting } from "@collector/core"
import { logFormatConfig } from "./LogFormat.js"
import { logLevelConfig } from "./LogLevelSetting.js"
import { shutdownGraceConfig } from "./ShutdownGrace.js"

/** The settings every process reads through `launch` (tracing's are `tracingSettings`), for the docs. */
export const launchSettings: ReadonlyArray<Setting.Setting<unknown>> = [logLevelConfig, logFormatConfig(false), shutdownGraceConfig]
