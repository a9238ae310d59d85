import { iso, isoOrNull } from '../util/timestamps';

/** The spec's Connection resource (section 2), as every connection endpoint answers it. */
export interface ConnectionView {
  id: string;
  name: string;
  db_type: string;
  host: string;
  port: number;
  database_name: string;
  is_active: boolean;
  created_at: string;
  last_introspected_at: string | null;
}

/** The columns behind {@link ConnectionView}; the ciphertext is never selected with them. */
export const CONNECTION_VIEW_COLUMNS = 'id, name, db_type, host, port, database_name, is_active, created_at, last_introspected_at';

/** A row as the drivers return it: timestamps may be Date or text until {@link iso} maps them. */
export type ConnectionViewRow = Omit<ConnectionView, 'created_at' | 'last_introspected_at'> & {
  created_at: unknown;
  last_introspected_at: unknown;
};

export const toConnectionView = (r: ConnectionViewRow): ConnectionView => ({
  id: r.id,
  name: r.name,
  db_type: r.db_type,
  host: r.host,
  port: Number(r.port),
  database_name: r.database_name,
  is_active: r.is_active,
  created_at: iso(r.created_at),
  last_introspected_at: isoOrNull(r.last_introspected_at),
});
