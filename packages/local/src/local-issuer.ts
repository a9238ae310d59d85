import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Issuer and audience of tokens minted by the local runtime. */
export const LOCAL_ISSUER = 'dbops-local';
export const LOCAL_AUDIENCE = 'dbops';

export interface LocalIssuer {
  /** A signed ES256 JWT for `subject`, valid for `ttlSeconds` (default 24 h). */
  sign(subject: string, ttlSeconds?: number): Promise<string>;
  /** The public key set, as served at /.well-known/jwks.json. */
  jwks: { keys: JWK[] };
}

interface KeyFile {
  privateJwk: JWK;
  publicJwk: JWK;
}

/**
 * The local runtime's own OIDC-like issuer: one ES256 key pair kept in `<home>/jwt/signing-key.json`
 * (mode 0600), created on first use, so `npm run token` and `npm start` agree across restarts.
 */
export async function loadLocalIssuer(home: string): Promise<LocalIssuer> {
  const file = path.join(home, 'jwt', 'signing-key.json');
  let keys: KeyFile;
  if (existsSync(file)) {
    keys = JSON.parse(await readFile(file, 'utf8')) as KeyFile;
  } else {
    const pair = await generateKeyPair('ES256', { extractable: true });
    const kid = `local-${Date.now().toString(36)}`;
    keys = {
      privateJwk: { ...(await exportJWK(pair.privateKey)), kid, alg: 'ES256', use: 'sig' },
      publicJwk: { ...(await exportJWK(pair.publicKey)), kid, alg: 'ES256', use: 'sig' },
    };
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
      // Another process created it first: use theirs so both agree.
      if (error.code !== 'EEXIST') throw error;
      keys = JSON.parse(await readFile(file, 'utf8')) as KeyFile;
    });
  }
  const privateKey = await importJWK(keys.privateJwk, 'ES256');
  return {
    jwks: { keys: [keys.publicJwk] },
    sign: (subject, ttlSeconds = 24 * 3600) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: keys.privateJwk.kid ?? 'local' })
        .setIssuer(LOCAL_ISSUER)
        .setAudience(LOCAL_AUDIENCE)
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(privateKey),
  };
}
