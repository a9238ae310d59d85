/**
 * The identity an authorizer hands to handlers through `requestContext.authorizer.lambda`.
 * API Gateway only passes string, number and boolean values, so the shape stays flat.
 */
export interface AuthContext {
  userId: string;
  authMethod: 'api_key' | 'jwt';
  /** Set when the caller used an API key. */
  keyId?: string;
  /** The key's policy as JSON (a flat string, as API Gateway requires); absent when it has none. */
  keyPolicy?: string;
  /** Set on tool calls of the MCP endpoint, which run the route handlers in-process. */
  via?: 'mcp';
}

export const isAuthContext = (value: unknown): value is AuthContext => {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.userId === 'string' && (v.authMethod === 'api_key' || v.authMethod === 'jwt');
};
