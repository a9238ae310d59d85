/** SSL modes of the spec (section 2); default `require`. */
export type SslMode = 'require' | 'prefer' | 'disable';

/**
 * A registered connection with its decrypted connection string, for code that must reach the
 * user's database. Lives in memory only: never logged, never stored, never returned.
 */
export interface ConnectionTarget {
  id: string;
  userId: string;
  name: string;
  dbType: string;
  /** Plaintext `postgresql://user:password@host:port/db?...`. */
  connectionString: string;
  sslmode: SslMode;
  host: string;
  port: number;
  database: string;
  isActive: boolean;
  /**
   * For `sslmode=prefer` only: true when the last probe found that the server does not offer
   * TLS, so {@link pgClientConfig} connects in plain text at once. Absent means "try TLS".
   */
  preferPlain?: boolean;
}
