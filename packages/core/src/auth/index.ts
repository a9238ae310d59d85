export { createJwtVerifier, createRemoteJwtVerifier, type JwtVerifier } from './jwt-verifier';
