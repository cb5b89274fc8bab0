/**
 * Request headers as a server hands them over: a fetch `Headers` object, or a plain record such
 * as node's `IncomingHttpHeaders` (lower-case names, arrays for repeated headers).
 */
export type WebhookHeaders = Headers | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/**
 * The single value of a header, or undefined when it is absent or ambiguous (sent twice, or
 * present under two spellings of its name): an ambiguous header is never guessed at.
 */
export const headerValue = (headers: WebhookHeaders, name: string): string | undefined => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined
  const wanted = name.toLowerCase()
  const values = Object.entries(headers).filter(([key, value]) => key.toLowerCase() === wanted && value !== undefined)
  if (values.length !== 1) return undefined
  const value = values[0]![1]!
  if (typeof value === "string") return value
  return value.length === 1 ? value[0] : undefined
}

/** `application/json`, optionally with `charset=utf-8`; any other charset would be misread. */
export const isJsonContentType = (value: string | undefined): boolean => {
  if (value === undefined) return false
  const [mediaType, ...parameters] = value.split(";").map((part) => part.trim().toLowerCase())
  if (mediaType !== "application/json") return false
  return parameters.every((parameter) => parameter === "" || /^charset="?utf-8"?$/.test(parameter))
}
