/**
 * The memory twin of `lower(column) LIKE '%' || lower(text) || '%'` with only the backslash
 * escaped: a case-insensitive contains match where the tenant's `%` is any run of characters and
 * `_` any one character, and everything else (the backslash too) stands for itself.
 */
export const containsPattern = (text: string): ((value: string) => boolean) => {
  const body = Array.from(text.toLowerCase(), (char) =>
    char === "%" ? "[^]*" : char === "_" ? "[^]" : char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("")
  const pattern = new RegExp(`^[^]*${body}[^]*$`, "u")
  return (value) => pattern.test(value.toLowerCase())
}
