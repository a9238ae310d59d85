import { iso } from '../util/timestamps';

/** The spec's Provisioned database resource (section 2). */
export interface ProvisionedDatabaseView {
  id: string;
  connection_id: string | null;
  name: string;
  schema_name: string;
  status: string;
  created_at: string;
}

export const PROVISIONED_COLUMNS = 'id, connection_id, name, schema_name, status, created_at';

export interface ProvisionedRow {
  id: string;
  connection_id: string | null;
  name: string;
  schema_name: string;
  status: string;
  created_at: unknown;
}

export const toProvisionedView = (r: ProvisionedRow): ProvisionedDatabaseView => ({
  id: r.id,
  connection_id: r.connection_id,
  name: r.name,
  schema_name: r.schema_name,
  status: r.status,
  created_at: iso(r.created_at),
});
