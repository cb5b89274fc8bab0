/** Markup that is safe to put in a page as it is: built by `html`, never from unchecked text. */
export interface Html {
  readonly _tag: "Html"
  readonly text: string
}

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;", "`": "&#96;" }

/** Text made safe for an element's content and for a quoted attribute value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"'`]/g, (c) => entities[c]!)

type Value = Html | string | number | bigint | boolean | null | undefined | ReadonlyArray<Value>

const isHtml = (value: unknown): value is Html => typeof value === "object" && value !== null && (value as Html)._tag === "Html"

const render = (value: Value): string =>
  value === null || value === undefined || value === false
    ? ""
    : isHtml(value)
    ? value.text
    : Array.isArray(value)
    ? (value as ReadonlyArray<Value>).map(render).join("")
    : escapeHtml(String(value))

/**
 * The one way pages are written: every interpolated value is escaped unless it is `Html` itself
 * (a fragment built by this same template), so no value from the store reaches a page raw.
 */
export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<Value>): Html => ({
  _tag: "Html",
  text: strings.reduce((out, string, i) => out + string + (i < values.length ? render(values[i]!) : ""), "")
})
