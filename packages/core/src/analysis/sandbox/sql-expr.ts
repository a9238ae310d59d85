/** A synthetic value written as an SQL expression rather than a literal (a parent row read back, a hash partition's key). */
export class SqlExpr {
  constructor(readonly sql: string) {}
}
