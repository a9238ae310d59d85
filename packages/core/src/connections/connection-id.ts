const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID; anything else cannot name a connection (and must not reach a uuid column). */
export const isConnectionId = (value: string): boolean => UUID.test(value);
