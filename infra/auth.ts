/** The JWT issuer the functions trust. */
export interface JwtIssuer {
  issuer: $util.Input<string>;
  audience: $util.Input<string>;
  jwksUrl: $util.Input<string>;
}

/**
 * Any OIDC provider named at deploy time (`DBOPS_JWT_ISSUER`, `DBOPS_JWT_AUDIENCE`, and
 * optionally `DBOPS_JWT_JWKS_URL`, default `<issuer>/.well-known/jwks.json`), or else a
 * Cognito user pool created for the stage, whose ID tokens carry the app client id as `aud`.
 */
export function createJwtIssuer(): JwtIssuer & { userPool?: sst.aws.CognitoUserPool; clientId?: $util.Output<string> } {
  const issuer = process.env.DBOPS_JWT_ISSUER;
  if (issuer) {
    const audience = process.env.DBOPS_JWT_AUDIENCE;
    if (!audience) throw new Error('DBOPS_JWT_AUDIENCE must be set with DBOPS_JWT_ISSUER');
    return { issuer, audience, jwksUrl: process.env.DBOPS_JWT_JWKS_URL ?? `${issuer.replace(/\/$/, '')}/.well-known/jwks.json` };
  }
  const userPool = new sst.aws.CognitoUserPool('Users', { usernames: ['email'] });
  const client = userPool.addClient('Dashboard');
  const region = aws.getRegionOutput().region;
  const cognitoIssuer = $interpolate`https://cognito-idp.${region}.amazonaws.com/${userPool.id}`;
  return { issuer: cognitoIssuer, audience: client.id, jwksUrl: $interpolate`${cognitoIssuer}/.well-known/jwks.json`, userPool, clientId: client.id };
}
