/** Anything that can run a parameterised query on the target database: a `pg` client. */
export interface CatalogQueryable {
  query<R extends object>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}
