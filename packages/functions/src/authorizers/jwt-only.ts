import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { type AuthorizerResult, authorize } from './authorize';

/** Lambda authorizer (simple response) for API key management: a JWT only. */
export const handler = (event: APIGatewayRequestAuthorizerEventV2): Promise<AuthorizerResult> => authorize(event, { acceptApiKey: false });
