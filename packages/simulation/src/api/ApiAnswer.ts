import type { WireResponse } from "./InProcessServer.js"

/** An API answer as the workload reads it: the status, the envelope's data or its error code. */
export interface ApiAnswer {
  readonly status: number
  /** The success envelope's `data`; undefined on an error. */
  readonly data: any
  /** The error envelope's `error_code`; undefined on success. */
  readonly errorCode: string | undefined
  /**
   * The answer as a replay must repeat it: `<status> <body>`, the body without the error
   * envelope's `trace_id` (the contract gives every response its own, from the platform's
   * random source; it is never part of what is compared or traced).
   */
  readonly text: string
}

export const answerOf = (response: WireResponse): ApiAnswer => {
  let parsed: any
  try {
    parsed = JSON.parse(response.body)
  } catch {
    return { status: response.status, data: undefined, errorCode: undefined, text: `${response.status} ${response.body}` }
  }
  const isError = typeof parsed === "object" && parsed !== null && typeof parsed.error_code === "string"
  if (isError) delete parsed.trace_id
  return {
    status: response.status,
    data: isError ? undefined : parsed?.data,
    errorCode: isError ? parsed.error_code : undefined,
    text: `${response.status} ${JSON.stringify(parsed)}`
  }
}

/** The status and error code of an answer (or `ok`): what the trace records, free of stamped times. */
export const outcomeOf = (answer: ApiAnswer): string => (answer.errorCode === undefined ? `${answer.status} ok` : `${answer.status} ${answer.errorCode}`)
