import { defaultNodeConfig } from "@collector/tron-node"
import { describe, expect, it } from "@effect/vitest"
import { nodesOf, type WorkerNetwork } from "./WorkerProcess.js"

const read = defaultNodeConfig("nile", { fullNodeUrl: "https://a.example", solidityUrl: "https://a.example" })
const second = defaultNodeConfig("nile", { fullNodeUrl: "https://b.example", solidityUrl: "https://b.example" })
const replaced = defaultNodeConfig("nile", { fullNodeUrl: "http://127.0.0.1:9", solidityUrl: "http://127.0.0.1:9" })
const network = { node: read, nodes: [read, second] } as unknown as WorkerNetwork

describe("the nodes a worker network uses", () => {
  it("the list read from the environment, in order", () => {
    expect(nodesOf(network).map((n) => n.fullNodeUrl)).toEqual(["https://a.example", "https://b.example"])
  })

  it("an embedder's replaced node alone: the stand-ins' `{ ...network, node }` keeps working", () => {
    expect(nodesOf({ ...network, node: replaced }).map((n) => n.fullNodeUrl)).toEqual(["http://127.0.0.1:9"])
  })

  it("the node alone without a list", () => {
    expect(nodesOf({ node: replaced } as unknown as WorkerNetwork).map((n) => n.fullNodeUrl)).toEqual(["http://127.0.0.1:9"])
  })
})
