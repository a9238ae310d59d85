/**
 * Port: the shared PostgreSQL instance that hosts managed databases. Cloud: an admin
 * connection string from the secret store (`shared-instance-admin-url`) or
 * `DBOPS_SHARED_INSTANCE_URL`; locally an embedded PostgreSQL started on first need.
 */
export interface SharedInstance {
  /**
   * Admin connection string (`postgresql://admin:pw@host:port/db?sslmode=...`) of the database
   * in which tenants get their schemas. The role needs CREATEROLE and CREATE on the database.
   */
  adminUrl(): Promise<string>;
}
