/** Row of {@link serverInfoQuery}. */
export interface ServerInfoRow {
  server_version: string;
  server_version_num: string;
}

/** Server version as text and as a number. */
export const serverInfoQuery = (): string =>
  `SELECT current_setting('server_version') AS server_version, current_setting('server_version_num') AS server_version_num`;
