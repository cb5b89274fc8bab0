import { HttpApi } from "@effect/platform"
import { Authenticated, ContractApi, Signed } from "@collector/api"
import { Option } from "effect"

export type AuthKind = "none" | "signed" | "bearer"

export interface Route {
  readonly method: string
  readonly path: string
  readonly pattern: RegExp
  readonly auth: AuthKind
  /** Operations that declare no query parameters reject any query, even a bare `?`. */
  readonly acceptsQuery: boolean
}

const toPattern = (path: string) =>
  new RegExp(`^${path.split("/").map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/")}$`)

/** The served operations, read from the contract definition itself. */
export const routes: ReadonlyArray<Route> = (() => {
  const found: Array<Route> = []
  HttpApi.reflect(ContractApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, middleware }) => {
      const auth: AuthKind = middleware.has(Authenticated as never) ? "bearer" : middleware.has(Signed as never) ? "signed" : "none"
      found.push({
        method: endpoint.method,
        path: endpoint.path,
        pattern: toPattern(endpoint.path),
        auth,
        acceptsQuery: Option.isSome(endpoint.urlParamsSchema)
      })
    }
  })
  return found
})()

export type RouteMatch =
  | { readonly _tag: "Found"; readonly route: Route }
  | { readonly _tag: "WrongMethod" }
  | { readonly _tag: "Unknown" }

/**
 * A literal path owns its name: `GET /open/v1/sweeps/estimate` is the POST-only estimate asked
 * with the wrong method (405), not the detail of a task called "estimate" (400).
 */
export const matchRoute = (method: string, path: string): RouteMatch => {
  const matching = routes.filter((r) => r.pattern.test(path))
  if (matching.length === 0) return { _tag: "Unknown" }
  const literal = matching.filter((r) => r.path === path)
  const onPath = literal.length > 0 ? literal : matching
  const route = onPath.find((r) => r.method === method)
  return route === undefined ? { _tag: "WrongMethod" } : { _tag: "Found", route }
}
