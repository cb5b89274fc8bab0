import { Chain } from "@collector/core"
import { Effect, Option, ParseResult, Schema } from "effect"
import type { NodeBody, NodeClient, NodePath } from "./NodeClient.js"
import type { NodeReturn } from "./NodeResponses.js"

/**
 * Reading java-tron's replies. Failures arrive with HTTP 200, in two shapes:
 * `{"Error": "<exception> : <text>"}` from any servlet that threw, and a `Return`
 * (`{"result": {"code", "message"}}`, or top-level on broadcast) whose message is hex of UTF-8
 * text unless the request asked for `visible`. "Not found" is `{}`.
 */
export interface NodeFailure {
  readonly code: string
  readonly message: string
}

const hexText = /^(?:[0-9a-fA-F]{2})+$/

/** The text of a node message: hex decoded when it is hex, as is otherwise (visible=true replies are plain). */
export const decodeNodeText = (text: string): string =>
  hexText.test(text) ? Buffer.from(text, "hex").toString("utf8") : text

const exceptionText = /^class\s+(?:[\w$]+\.)*([\w$]+)\s*:\s*([\s\S]*)$/

/** `{"Error": "class org.tron.core.exception.ContractValidateException : balance is not sufficient."}`. */
export const errorReply = (json: unknown): Option.Option<NodeFailure> => {
  if (typeof json !== "object" || json === null || !("Error" in json)) return Option.none()
  const text = String(json.Error)
  const match = exceptionText.exec(text)
  return Option.some(match ? { code: match[1]!, message: match[2]! } : { code: "Error", message: text })
}

/** A `Return` that did not succeed, with its message decoded. */
export const returnFailure = (ret: NodeReturn): Option.Option<NodeFailure> =>
  ret.result
    ? Option.none()
    : Option.some({ code: ret.code ?? "UNKNOWN", message: decodeNodeText(ret.message ?? "") })

/** `{}` is how java-tron says "no such block / account / transaction". */
export const isUnknownObject = (json: unknown): boolean =>
  typeof json === "object" && json !== null && !Array.isArray(json) && Object.keys(json).length === 0

export const describeFailure = (failure: NodeFailure): string =>
  failure.message === "" ? failure.code : `${failure.code}: ${failure.message}`

/**
 * Decodes a reply of `endpoint`: an `{"Error"}` reply or a shape the schema does not accept
 * becomes ChainRejected naming the endpoint, so a log line says which call went wrong.
 */
export const decodeReply = <A, I>(schema: Schema.Schema<A, I>, endpoint: string) => (json: unknown): Effect.Effect<A, Chain.ChainRejected> =>
  Option.match(errorReply(json), {
    onSome: (failure) => Effect.fail(new Chain.ChainRejected({ reason: `${endpoint}: ${describeFailure(failure)}` })),
    onNone: () =>
      Schema.decodeUnknown(schema)(json).pipe(
        Effect.mapError((error) =>
          new Chain.ChainRejected({
            reason: `${endpoint} returned an unexpected reply: ${ParseResult.TreeFormatter.formatErrorSync(error)}`
          })
        )
      )
  })

/** POSTs a read and decodes its reply with `schema`. */
export const callNode = <A, I>(node: NodeClient, path: NodePath, body: NodeBody, schema: Schema.Schema<A, I>) =>
  node.post(path, body).pipe(Effect.flatMap(decodeReply(schema, path)))
