/**
 * A condition over a stored row, written once in core as data: the memory driver evaluates it with
 * `holds`, the PostgreSQL adapter renders the same description into its WHERE clause (mapping each
 * field to a column). A claim, due or availability rule defined this way cannot differ between the
 * two drivers; only the renderer could, and it is checked against `holds` on a real database.
 *
 * The language is kept to what such rules need and what means the same in both places:
 * - no negation: a comparison with a missing (null) value is false here, unknown in SQL, and
 *   without NOT both reject the row alike (AND and OR keep "true" the same in both logics);
 * - strings are compared for equality only (SQL collations order text differently from JavaScript);
 * - literals are core's constants, never input, and are written into the SQL text (so a partial
 *   index whose predicate names them can be used); everything else a caller passes is a parameter.
 */

/** A value a row field or a parameter holds. */
export type Value = string | number | bigint | boolean | Date | null

export type Comparison = "=" | "<>" | "<" | "<=" | ">" | ">="

/** A field of the row, a parameter of the check, or a constant of core. */
export type OperandNode =
  | { readonly _tag: "Field"; readonly field: string }
  | { readonly _tag: "Param"; readonly param: string }
  | { readonly _tag: "Literal"; readonly value: string | number | boolean }
  /** A time plus a number of minutes (null if either is). */
  | { readonly _tag: "PlusMinutes"; readonly at: OperandNode; readonly minutes: OperandNode }

export type RuleNode =
  | { readonly _tag: "All"; readonly rules: ReadonlyArray<RuleNode> }
  | { readonly _tag: "Any"; readonly rules: ReadonlyArray<RuleNode> }
  | { readonly _tag: "IsNull"; readonly operand: OperandNode }
  | { readonly _tag: "Compare"; readonly left: OperandNode; readonly op: Comparison; readonly right: OperandNode }
  /** The operand is (or, `negated`, is not) one of the literals; a null operand is neither. */
  | { readonly _tag: "OneOf"; readonly operand: OperandNode; readonly values: ReadonlyArray<string>; readonly negated: boolean }

/**
 * An operand over rows `R` with parameters `P`. The types only say which field and parameter names
 * the operand may use (checked where it is made); a rule over fewer fields fits a row with more.
 */
export interface Operand<in R, in P> {
  readonly node: OperandNode
  readonly _row?: (row: R, params: P) => void
}

/** A rule over rows `R` with parameters `P` (see Operand). */
export interface Rule<in R, in P> {
  readonly node: RuleNode
  readonly _row?: (row: R, params: P) => void
}

const operand = <R, P>(node: OperandNode): Operand<R, P> => ({ node })
const rule = <R, P>(node: RuleNode): Rule<R, P> => ({ node })

export const field = <R>(name: keyof R & string): Operand<R, unknown> => operand({ _tag: "Field", field: name })
export const param = <P>(name: keyof P & string): Operand<unknown, P> => operand({ _tag: "Param", param: name })
export const literal = (value: string | number | boolean): Operand<unknown, unknown> => operand({ _tag: "Literal", value })
export const plusMinutes = <R, P>(at: Operand<R, P>, minutes: Operand<R, P>): Operand<R, P> =>
  operand({ _tag: "PlusMinutes", at: at.node, minutes: minutes.node })

export const all = <R, P>(...rules: ReadonlyArray<Rule<R, P>>): Rule<R, P> => rule({ _tag: "All", rules: rules.map((r) => r.node) })
export const any = <R, P>(...rules: ReadonlyArray<Rule<R, P>>): Rule<R, P> => rule({ _tag: "Any", rules: rules.map((r) => r.node) })
export const isNull = <R, P>(o: Operand<R, P>): Rule<R, P> => rule({ _tag: "IsNull", operand: o.node })
export const compare = <R, P>(left: Operand<R, P>, op: Comparison, right: Operand<R, P>): Rule<R, P> =>
  rule({ _tag: "Compare", left: left.node, op, right: right.node })
export const oneOf = <R, P>(o: Operand<R, P>, values: ReadonlyArray<string>): Rule<R, P> =>
  rule({ _tag: "OneOf", operand: o.node, values, negated: false })
export const noneOf = <R, P>(o: Operand<R, P>, values: ReadonlyArray<string>): Rule<R, P> =>
  rule({ _tag: "OneOf", operand: o.node, values, negated: true })

/** A lease or claim that has run out by `at` (none held counts as run out): the row may be taken. */
export const unclaimedAt = <R, P>(until: Operand<R, P>, at: Operand<R, P>): Rule<R, P> => any(isNull(until), compare(until, "<=", at))

const minuteMillis = 60_000

type Fields = Readonly<Record<string, unknown>>

const valueOf = (node: OperandNode, row: Fields, params: Fields): Value => {
  switch (node._tag) {
    case "Field":
      return row[node.field] as Value
    case "Param":
      return params[node.param] as Value
    case "Literal":
      return node.value
    case "PlusMinutes": {
      const at = valueOf(node.at, row, params)
      const minutes = valueOf(node.minutes, row, params)
      if (at === null || minutes === null) return null
      if (!(at instanceof Date)) throw new TypeError("RowRule: plusMinutes of a value that is not a time")
      return new Date(at.getTime() + Number(minutes) * minuteMillis)
    }
  }
}

const comparable = (value: Exclude<Value, null>): string | number | bigint | boolean =>
  value instanceof Date ? value.getTime() : value

const compareValues = (left: Value, op: Comparison, right: Value): boolean => {
  if (left === null || right === null) return false
  const a = comparable(left)
  const b = comparable(right)
  if ((typeof a === "string" || typeof b === "string") && op !== "=" && op !== "<>") {
    throw new TypeError(`RowRule: strings are compared for equality only, not with ${op}`)
  }
  switch (op) {
    case "=":
      return a === b
    case "<>":
      return a !== b
    case "<":
      return a < b
    case "<=":
      return a <= b
    case ">":
      return a > b
    case ">=":
      return a >= b
  }
}

const evaluate = (node: RuleNode, row: Fields, params: Fields): boolean => {
  switch (node._tag) {
    case "All":
      return node.rules.every((r) => evaluate(r, row, params))
    case "Any":
      return node.rules.some((r) => evaluate(r, row, params))
    case "IsNull":
      return valueOf(node.operand, row, params) === null
    case "Compare":
      return compareValues(valueOf(node.left, row, params), node.op, valueOf(node.right, row, params))
    case "OneOf": {
      const value = valueOf(node.operand, row, params)
      return value !== null && node.values.includes(String(value)) !== node.negated
    }
  }
}

/** Whether the row meets the rule, as the rendered WHERE clause decides it. */
export const holds = <R, P>(rule: Rule<R, P>, row: R, params: P): boolean =>
  evaluate(rule.node, row as unknown as Fields, (params ?? {}) as unknown as Fields)
