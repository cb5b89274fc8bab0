import { createHash, createHmac } from "node:crypto"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { parseCanonicalQuery } from "./CanonicalQuery.js"
import { bodySha256Hex, canonicalString, constantTimeEqual, sign, verifySignature } from "./Signature.js"
import type { CanonicalStringInput } from "./Signature.js"

interface SignatureVector {
  readonly name: string
  readonly method: string
  readonly path: string
  readonly raw_query: string
  readonly body: string
  readonly x_app_id: string
  readonly x_timestamp: string
  readonly access_token: string
  readonly canonical_query: string
  readonly canonical: string
  readonly x_sign: string
}

const vectors: { app_secret: string; cases: ReadonlyArray<SignatureVector> } = JSON.parse(
  readFileSync(new URL("../../../../test-fixtures/signature-vectors.json", import.meta.url), "utf8")
)
const secret = vectors.app_secret
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

/** Builds the signature input from a vector the way the server does: from what was sent. */
const inputOf = (vector: SignatureVector): CanonicalStringInput => {
  const query = parseCanonicalQuery(vector.raw_query)
  if (!query.ok) throw new Error(`vector query did not parse: ${vector.name}`)
  return {
    method: vector.method,
    path: vector.path,
    appId: vector.x_app_id,
    timestamp: vector.x_timestamp,
    accessToken: vector.access_token,
    canonicalQuery: query.canonical,
    body: utf8(vector.body)
  }
}

describe("shared signature vectors", () => {
  it("has vectors to check", () => {
    expect(vectors.cases.length).toBeGreaterThanOrEqual(5)
  })

  for (const vector of vectors.cases) {
    describe(vector.name, () => {
      it("reproduces the canonical string", () => {
        expect(canonicalString(inputOf(vector))).toBe(vector.canonical)
      })

      it("reproduces X-Sign", () => {
        expect(sign(secret, vector.canonical)).toBe(vector.x_sign)
      })

      it("verifies the vector's X-Sign", () => {
        expect(verifySignature(secret, canonicalString(inputOf(vector)), vector.x_sign)).toBe(true)
      })
    })
  }

  it("gives reordered JSON keys another signature", () => {
    const signs = vectors.cases.filter((v) => v.path === "/open/v1/wallets" && v.method === "POST").map((v) => v.x_sign)
    expect(signs).toHaveLength(2)
    expect(signs[0]).not.toBe(signs[1])
  })
})

describe("bodySha256Hex", () => {
  it("hashes the empty body as the empty string", () => {
    expect(bodySha256Hex(new Uint8Array())).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
  })

  it("hashes the raw bytes, including bytes that are not UTF-8", () => {
    const body = new Uint8Array([0x7b, 0xff, 0x00, 0x7d])
    expect(bodySha256Hex(body)).toBe(createHash("sha256").update(body).digest("hex"))
  })

  it("accepts a Node Buffer", () => {
    expect(bodySha256Hex(Buffer.from("{}"))).toBe(createHash("sha256").update("{}").digest("hex"))
  })
})

describe("sign", () => {
  it("agrees with node:crypto HMAC-SHA256 over UTF-8 key and data", () => {
    const key = "sécret-中"
    const data = "GET\n/päth\n1\n2\n\n\n"
    expect(sign(key, data)).toBe(createHmac("sha256", Buffer.from(key, "utf8")).update(data, "utf8").digest("hex"))
  })
})

describe("canonicalString", () => {
  it("upper-cases the method", () => {
    const base = inputOf(vectors.cases[1]!)
    expect(canonicalString({ ...base, method: "get" })).toBe(canonicalString(base))
  })
})

describe("tampering", () => {
  const vector = vectors.cases[3]!
  const original = inputOf(vector)
  const tampered: ReadonlyArray<[string, CanonicalStringInput]> = [
    ["method", { ...original, method: "GET" }],
    ["path", { ...original, path: "/open/v1/wallets/" }],
    ["path case", { ...original, path: "/open/v1/Wallets" }],
    ["app id", { ...original, appId: "1000002" }],
    ["timestamp", { ...original, timestamp: "1763700001" }],
    ["access token", { ...original, accessToken: "tok_abd" }],
    ["access token dropped", { ...original, accessToken: "" }],
    ["query", { ...original, canonicalQuery: "a=1" }],
    ["body byte", { ...original, body: utf8(vector.body.replace("user-42", "user-43")) }],
    ["body whitespace", { ...original, body: utf8(vector.body.replace(":", ": ")) }],
    ["body emptied", { ...original, body: new Uint8Array() }]
  ]

  it.each(tampered)("rejects the original X-Sign after changing the %s", (_name, input) => {
    expect(verifySignature(secret, canonicalString(original), vector.x_sign)).toBe(true)
    expect(verifySignature(secret, canonicalString(input), vector.x_sign)).toBe(false)
  })

  it("rejects another secret", () => {
    expect(verifySignature(secret + "x", vector.canonical, vector.x_sign)).toBe(false)
    expect(verifySignature("", vector.canonical, vector.x_sign)).toBe(false)
  })

  it("rejects moving content between lines", () => {
    // Same characters, different split: the newline layout must keep them apart.
    const a = canonicalString({ ...original, appId: "1000001", timestamp: "1763700000" })
    const b = canonicalString({ ...original, appId: "10000011", timestamp: "763700000" })
    expect(sign(secret, a)).not.toBe(sign(secret, b))
  })

  it("rejects every single-character change of X-Sign", () => {
    for (let i = 0; i < vector.x_sign.length; i++) {
      const c = vector.x_sign[i] === "0" ? "1" : "0"
      const forged = vector.x_sign.slice(0, i) + c + vector.x_sign.slice(i + 1)
      expect(verifySignature(secret, vector.canonical, forged)).toBe(false)
    }
  })

  it.each([
    ["empty", ""],
    ["upper-case hex", vectors.cases[3]!.x_sign.toUpperCase()],
    ["one character short", vectors.cases[3]!.x_sign.slice(0, 63)],
    ["one character long", vectors.cases[3]!.x_sign + "0"],
    ["surrounded by whitespace", ` ${vectors.cases[3]!.x_sign}`],
    ["trailing newline", `${vectors.cases[3]!.x_sign}\n`],
    ["non-hex characters", "g".repeat(64)],
    ["base64 of the right MAC", Buffer.from(vectors.cases[3]!.x_sign, "hex").toString("base64")]
  ])("rejects an X-Sign that is %s", (_name, provided) => {
    expect(verifySignature(secret, vector.canonical, provided)).toBe(false)
  })
})

describe("constantTimeEqual", () => {
  it("compares contents and lengths", () => {
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true)
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false)
    expect(constantTimeEqual(new Uint8Array([0x80, 2, 3]), new Uint8Array([0, 2, 3]))).toBe(false)
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0]))).toBe(false)
    expect(constantTimeEqual(new Uint8Array(), new Uint8Array())).toBe(true)
  })
})
