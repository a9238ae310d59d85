import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { type AuthorizerResult, authorize } from './authorize';

/** Lambda authorizer (simple response) for resource endpoints: an API key or a JWT. */
export const handler = (event: APIGatewayRequestAuthorizerEventV2): Promise<AuthorizerResult> => authorize(event, { acceptApiKey: true });
