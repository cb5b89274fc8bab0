import { readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { settingsGroups } from "./SettingsRegistry.js"
import { documentsWithSettings, withSettingsTables } from "./SettingsTables.js"

// `npm run docs:config`: rewrites the settings tables of the docs from the declarations.
const root = resolve(import.meta.dirname, "../..")
for (const file of documentsWithSettings) {
  const path = join(root, file)
  const before = readFileSync(path, "utf8")
  const after = withSettingsTables(before, settingsGroups)
  if (after !== before) writeFileSync(path, after)
  console.log(`${file}: ${after === before ? "up to date" : "rewritten"}`)
}
