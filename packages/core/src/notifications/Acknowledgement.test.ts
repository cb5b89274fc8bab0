import { describe, expect, it } from "@effect/vitest"
import { judgeResponse, responseExcerpt, storableText } from "./Acknowledgement.js"

const response = (status: number, body: string, location: string | null = null, truncated = false) => ({ status, body, location, truncated })

describe("judgeResponse", () => {
  it.each([
    ['{"code":0}', true, ""],
    ['{"code":0,"message":"ok","data":null}', true, ""],
    ['{"code":0.0}', true, ""],
    ['{"code":"0"}', false, 'HTTP 200 but the response\'s top-level "code" is "0"; expected 0'],
    ['{"data":{"code":0}}', false, 'HTTP 200 but the response\'s top-level "code" is missing; expected 0'],
    ["[0]", false, 'HTTP 200 but the response\'s top-level "code" is missing; expected 0'],
    ["", false, "HTTP 200 but the response body is not JSON"],
    ["<html>OK</html>", false, "HTTP 200 but the response body is not JSON"]
  ])("HTTP 200 with %j: delivered %s", (body, delivered, error) => {
    expect(judgeResponse(response(200, body))).toEqual({ delivered, error })
  })

  it("fails every other status, a redirect naming its target, and a body over the cap", () => {
    expect(judgeResponse(response(201, '{"code":0}'))).toEqual({ delivered: false, error: "HTTP 201: expected 200" })
    expect(judgeResponse(response(301, "", "https://x.test/"))).toEqual({
      delivered: false,
      error: "HTTP 301 redirect to https://x.test/; redirects are not followed"
    })
    expect(judgeResponse(response(307, "")).error).toBe("HTTP 307 redirect to (no Location header); redirects are not followed")
    expect(judgeResponse(response(200, '{"code":0', null, true))).toEqual({ delivered: false, error: "HTTP 200 but the response body is too large" })
  })

  it("keeps at most 1024 characters of a body", () => {
    expect(responseExcerpt("x".repeat(5000))).toHaveLength(1024)
    expect(responseExcerpt("short")).toBe("short")
    // Cut inside an emoji: the lone half is replaced, so PostgreSQL accepts the text.
    expect(responseExcerpt("x".repeat(1023) + "😀")).toBe("x".repeat(1023) + "\uFFFD")
    expect(responseExcerpt("a\u0000b")).toBe("a\uFFFDb")
    expect(storableText("ok 😀 \uDC00 \uD83D")).toBe("ok 😀 \uFFFD \uFFFD")
  })
})
