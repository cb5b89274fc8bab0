import { ConfigValue, Setting } from "@collector/core"
import { Config, LogLevel } from "effect"

const labels = LogLevel.allLevels.map((level) => level.label)

/**
 * `LOG_LEVEL`: the least severe level written, by its label in any case. Read through
 * `ConfigValue.oneOf`, so a slip gets the sentence every other setting gets.
 */
export const logLevelConfig: Setting.Setting<LogLevel.LogLevel> = Setting.declare({
  name: "LOG_LEVEL",
  default: LogLevel.Info,
  shown: "`INFO`",
  description: `${labels.map((label) => `\`${label}\``).join(", ")}. Access lines are written at \`INFO\`.`
}, (name) =>
  ConfigValue.oneOf(name, labels.map((label) => label.toLowerCase())).pipe(
    Config.map((label) => LogLevel.allLevels.find((level) => level.label.toLowerCase() === label)!)
  ))
