import { describe, expect, it } from "vitest"
import { escapeHtml, html } from "./Html.js"

describe("html", () => {
  it("escapes every interpolated text, in content and attributes alike", () => {
    const evil = `<script>alert("x")</script>' onmouseover='y' \`z\` &amp;`
    expect(html`<p title="${evil}">${evil}</p>`.text).toBe(
      "<p title=\"&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;y&#39; &#96;z&#96; &amp;amp;\">" +
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;y&#39; &#96;z&#96; &amp;amp;</p>"
    )
  })

  it("keeps fragments built by html, joins lists, and leaves out nothing-values", () => {
    const items = ["a<", "b>"].map((x) => html`<li>${x}</li>`)
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}${12n}`.text).toBe("<ul><li>a&lt;</li><li>b&gt;</li></ul>012")
  })

  it("escapeHtml changes nothing else", () => {
    expect(escapeHtml("TXyz 1,000.5 é")).toBe("TXyz 1,000.5 é")
  })
})
