/**
 * PostgreSQL array literals (`{a,b,…}`), passed as ONE statement parameter and cast at the call
 * site (`${textArray(xs)}::text[]`, `${integerArray(ns)}::bigint[]`): a whole batch becomes one
 * parameter for `= ANY(…)` or `unnest(…)`, however many values it holds.
 */

/**
 * A `text[]` literal. Every element is double-quoted, with `\` and `"` escaped, so commas,
 * braces, quotes, backslashes, white space, the empty string and the word NULL all arrive
 * as written.
 */
export const textArray = (values: ReadonlyArray<string>): string =>
  `{${values.map((value) => `"${value.replace(/[\\"]/g, "\\$&")}"`).join(",")}}`

const integer = /^-?\d+$/

/**
 * An integer literal for `int[]`, `bigint[]` or `numeric[]`. Elements are written as they are
 * (bigint and number print as digits; a string ID must already be digits): anything else
 * would change the array's length or meaning, so it is refused.
 */
export const integerArray = (values: ReadonlyArray<bigint | number | string>): string =>
  `{${
    values.map((value) => {
      const text = String(value)
      if (!integer.test(text)) throw new TypeError(`not an integer for an array literal: ${text}`)
      return text
    }).join(",")
  }}`
