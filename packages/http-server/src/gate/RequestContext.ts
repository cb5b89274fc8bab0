import { CurrentApp } from "@collector/api"
import { FiberRef, Option } from "effect"

/** The trace ID of the request being served; every error envelope and log line carries it. */
export const currentTraceId = FiberRef.unsafeMake<string>("00000000000000000000000000000000")

/** The caller authenticated by the gate, handed to handlers through the middleware tags. */
export const currentApp = FiberRef.unsafeMake<Option.Option<CurrentApp["Type"]>>(Option.none())

/** The parsed JSON body, so handlers can compute the idempotency digest of what was sent. */
export const currentBody = FiberRef.unsafeMake<Record<string, unknown>>({})
