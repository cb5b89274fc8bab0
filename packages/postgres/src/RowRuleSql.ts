import type { SqlClient, Statement } from "@effect/sql"
import type { Kernel } from "@collector/core"

/** The SQL expression of each field a rule reads (`e.next_attempt`): every field must be named. */
export type Columns<R> = { readonly [K in keyof R]-?: string }

/** What each parameter of a rule is bound to: a value, or an SQL expression (`now()`). */
export type Params<P> = { readonly [K in keyof P]-?: P[K] | Statement.Fragment }

// Core's constants go into the text (partial indexes name them); quoting keeps a quote inside one harmless.
const literalSql = (value: string | number | boolean): string => {
  if (typeof value === "string") return `'${value.replaceAll("'", "''")}'`
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE"
  if (!Number.isFinite(value)) throw new TypeError(`RowRule literal ${value} is not a finite number`)
  return String(value)
}

/**
 * Core's rule as a boolean SQL expression over `columns`, with `params` bound. Evaluated by a WHERE
 * clause it keeps exactly the rows `RowRule.holds` accepts (RowRuleSql.test checks it against a
 * real database over generated rows).
 */
export const render = <R, P>(
  sql: SqlClient.SqlClient,
  rule: Kernel.RowRule.Rule<R, P>,
  columns: Columns<R>,
  params: Params<P>
): Statement.Fragment => {
  const columnOf = columns as unknown as Readonly<Record<string, string>>
  const paramOf = params as unknown as Readonly<Record<string, unknown>>
  const operand = (o: Kernel.RowRule.OperandNode): Statement.Fragment => {
    switch (o._tag) {
      case "Field": {
        const column = columnOf[o.field]
        if (column === undefined) throw new TypeError(`RowRule: no column for the field ${o.field}`)
        return sql.unsafe(column)
      }
      case "Param":
        return sql`${paramOf[o.param]}`
      case "Literal":
        return sql.unsafe(literalSql(o.value))
      case "PlusMinutes":
        return sql`(${operand(o.at)} + ${operand(o.minutes)} * interval '1 minute')`
    }
  }
  const go = (r: Kernel.RowRule.RuleNode): Statement.Fragment => {
    switch (r._tag) {
      case "All":
        return r.rules.length === 0 ? sql.unsafe("TRUE") : sql.and(r.rules.map(go))
      case "Any":
        return r.rules.length === 0 ? sql.unsafe("FALSE") : sql.or(r.rules.map(go))
      case "IsNull":
        return sql`(${operand(r.operand)} IS NULL)`
      case "Compare":
        return sql`(${operand(r.left)} ${sql.unsafe(r.op)} ${operand(r.right)})`
      case "OneOf":
        // `IN ()` is not SQL: one of nothing is false, none of nothing is any value present.
        if (r.values.length === 0) return r.negated ? sql`(${operand(r.operand)} IS NOT NULL)` : sql.unsafe("FALSE")
        return sql`(${operand(r.operand)} ${sql.unsafe(r.negated ? "NOT IN" : "IN")} (${sql.unsafe(r.values.map(literalSql).join(", "))}))`
    }
  }
  return go(rule.node)
}

/** The columns of `fields` under a table alias: `{ nextAttempt: "next_attempt" }` with `e` gives `e.next_attempt`. */
export const aliased = <R>(alias: string, columns: Columns<R>): Columns<R> =>
  Object.fromEntries(Object.entries(columns).map(([key, column]) => [key, `${alias}.${column as string}`])) as Columns<R>
