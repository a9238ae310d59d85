import { type JoinStep, joinPath, sameLengthAlternative } from './join-paths';
import type { IndexedTable } from './schema-index';

/** A SELECT under construction. */
export class Plan {
  readonly joins: JoinStep[] = [];
  /** Joins no foreign-key step describes: a table joined to itself ("each employee with their manager"). */
  readonly rawJoins: string[] = [];
  readonly select: string[] = [];
  readonly where: string[] = [];
  readonly groupBy: string[] = [];
  readonly having: string[] = [];
  readonly orderBy: string[] = [];
  limit: number | undefined;
  distinct = false;
  /**
   * "How many tracks does each playlist have": every row of this (joined) table is a group, with
   * a count of 0 where nothing matches, so the joins are outer towards it. Only without filters,
   * which would drop the unmatched rows again.
   */
  keepAllOf: IndexedTable | undefined;
  readonly notes: string[] = [];
  readonly warnings: string[] = [];
  /** Columns tested for NULL from a negation ("not returned"): that negation is understood. */
  readonly nullTested: string[] = [];
  /** What the plan had to guess, each with the confidence it costs (see generateOffline). */
  readonly doubts: Array<{ what: string; cost: number }> = [];

  doubt(what: string, cost: number): void {
    this.doubts.push({ what, cost });
  }

  /**
   * Choices the plan made among near-equal readings (two tables holding the column the question
   * names, two join paths of the same length, an output item it could not read): each keeps the
   * answer below "confident" (0.8), however little else was guessed.
   */
  readonly ambiguities: string[] = [];
  /** Tables the question names (set by the generator): a join through one of them is the one meant. */
  named: ReadonlySet<IndexedTable> = new Set();

  ambiguous(what: string): void {
    if (!this.ambiguities.includes(what)) this.ambiguities.push(what);
  }

  /** Ambiguities that only the finished plan can settle (an ordering by a column added later). */
  readonly finalChecks: Array<() => string | undefined> = [];

  /** Runs the final checks once the plan is complete. */
  settle(): void {
    for (const check of this.finalChecks.splice(0)) {
      const what = check();
      if (what) this.ambiguous(what);
    }
  }

  constructor(
    readonly main: IndexedTable,
    readonly tables: readonly IndexedTable[],
  ) {}

  joined(): IndexedTable[] {
    return [this.main, ...this.joins.map((j) => j.to)];
  }

  /** Joins `t` along the shortest foreign-key path; false when there is none. */
  join(t: IndexedTable, preferIncoming = false): boolean {
    if (this.joined().includes(t)) return true;
    for (const start of this.joined()) {
      const shortest = joinPath(this.tables, start, t, preferIncoming);
      if (shortest) {
        const path = this.chooseAmongEquals(start, t, shortest);
        for (const step of path) if (!this.joined().includes(step.to)) this.joins.push(step);
        return true;
      }
    }
    this.warnings.push(`No foreign-key path joins ${this.main.table.name} to ${t.table.name}; that part of the question was ignored.`);
    return false;
  }

  /**
   * "trips from the Dockside depot": trips reach depots through vehicles and through drivers, two
   * paths of two steps. A path through tables the question names (or already joined) is the one
   * meant; otherwise the choice is a guess between equals.
   */
  private chooseAmongEquals(start: IndexedTable, t: IndexedTable, path: JoinStep[]): JoinStep[] {
    const other = sameLengthAlternative(this.tables, start, t, path);
    if (!other) return path;
    const known = (p: readonly JoinStep[]): boolean => p.slice(0, -1).every((s) => this.named.has(s.to) || this.joined().includes(s.to));
    if (known(path) && !known(other)) return path;
    if (known(other) && !known(path) && other.length > 1) return other;
    const through = (p: readonly JoinStep[]): string =>
      p.length > 1
        ? `through ${p
            .slice(0, -1)
            .map((s) => s.to.table.name)
            .join(', ')}`
        : `on ${p[0]!.on.map(([a]) => a).join(', ')}`;
    this.ambiguous(`${start.table.name} was joined to ${t.table.name} ${through(path)}; ${through(other)} is as short`);
    return path;
  }

  /** True when a join may repeat rows of the main table. */
  fansOut(): boolean {
    return this.joins.some((j) => j.to.table.foreign_keys.some((fk) => fk.referenced_table === j.from.table.name));
  }

  sql(): string {
    const from = [`FROM ${this.main.sqlName} ${this.main.alias}`];
    const outer = this.keepAllOf !== undefined && this.where.length === 0 && this.having.length === 0 && this.joins.at(-1)?.to === this.keepAllOf;
    for (const j of this.joins) {
      const on = j.on.map(([a, b]) => `${j.from.alias}.${a} = ${j.to.alias}.${b}`).join(' AND ');
      from.push(`${outer ? 'RIGHT JOIN' : 'JOIN'} ${j.to.sqlName} ${j.to.alias} ON ${on}`);
    }
    from.push(...this.rawJoins);
    const parts = [`SELECT ${this.distinct ? 'DISTINCT ' : ''}${this.select.join(', ')}`, from.join('\n  ')];
    if (this.where.length) parts.push(`WHERE ${this.where.join('\n  AND ')}`);
    if (this.groupBy.length) parts.push(`GROUP BY ${this.groupBy.join(', ')}`);
    if (this.having.length) parts.push(`HAVING ${this.having.join(' AND ')}`);
    if (this.orderBy.length) parts.push(`ORDER BY ${this.orderBy.join(', ')}`);
    if (this.limit !== undefined) parts.push(`LIMIT ${this.limit}`);
    return parts.join('\n');
  }
}
