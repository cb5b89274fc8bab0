import type { Setting } from "@collector/core"
import type { SettingsGroup } from "./SettingsRegistry.js"

/**
 * The settings tables of a Markdown file, generated between markers that name a group of
 * `SettingsRegistry`: `<!-- settings:<id> -->` … `<!-- /settings:<id> -->`. Everything outside the
 * markers is the file's own prose and stays as written.
 */

// A pipe would end the cell; a line break would end the row.
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ")

/** One group's table: variable, default, meaning. */
export const settingsTable = (settings: ReadonlyArray<Setting.SettingDoc>): string =>
  [
    "| variable | default | meaning |",
    "|---|---|---|",
    ...settings.map(({ default: shown, description, name }) => `| \`${cell(name)}\` | ${cell(shown)} | ${cell(description)} |`)
  ].join("\n")

const markers = /<!-- settings:([a-z0-9-]+) -->\n[\s\S]*?<!-- \/settings:\1 -->/g

/** `markdown` with each marked table rewritten from `groups`; a marker naming no group is an error, so a typo cannot leave a table stale. */
export const withSettingsTables = (markdown: string, groups: ReadonlyArray<SettingsGroup>): string =>
  markdown.replace(markers, (_, id: string) => {
    const group = groups.find((candidate) => candidate.id === id)
    if (group === undefined) throw new Error(`<!-- settings:${id} --> names no group of scripts/settings/SettingsRegistry.ts`)
    return `<!-- settings:${id} -->\n${settingsTable(group.settings)}\n<!-- /settings:${id} -->`
  })

/** The ids of the groups `markdown` marks. */
export const markedGroups = (markdown: string): ReadonlyArray<string> => [...markdown.matchAll(markers)].map((match) => match[1]!)

/** The files holding generated tables, relative to the repository root. */
export const documentsWithSettings = ["docs/configuration.md", "docs/scanner.md", "docs/sweeps.md"] as const
