import type { HttpResult } from '@dbops/functions/http';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { consoleSecurityHeaders } from '@dbops/web/security-headers';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

interface StaticFile {
  /** Base64, encoded once at start. */
  body: string;
  type: string;
  immutable: boolean;
}

function readTree(root: string, dir: string, into: Map<string, StaticFile>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) readTree(root, full, into);
    else if (entry.isFile()) {
      const rel = `/${path.relative(root, full).split(path.sep).join('/')}`;
      // Vite names assets by content hash: they never change under the same name.
      into.set(rel, {
        body: readFileSync(full).toString('base64'),
        type: TYPES[path.extname(full)] ?? 'application/octet-stream',
        immutable: rel.startsWith('/assets/'),
      });
    }
  }
}

const notBuilt = (dir: string): HttpResult => ({
  statusCode: 503,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  body: `The web console is not built (${dir} is missing). Run: npm run -s build:console\n`,
});

/**
 * Serves the built console from memory: files are read once at start (the whole build is
 * about 60 kB), so a request costs a map lookup. Unknown paths without an extension get
 * index.html (the single-page app routes in the hash, but a reload of any path still works);
 * unknown paths with an extension fall through to the gateway's 404. `connectOrigins` are the
 * origins besides its own the page may call (CSP `connect-src`): in the cloud shape, the local
 * S3 its upload slots point at, as the deployed console lists the upload bucket (infra/console.ts).
 */
export function createConsoleFiles(dir: string, connectOrigins: readonly string[] = []): (method: string, urlPath: string) => HttpResult | undefined {
  const files = new Map<string, StaticFile>();
  const available = existsSync(path.join(dir, 'index.html')) && statSync(dir).isDirectory();
  if (available) readTree(dir, dir, files);
  return (method, urlPath) => {
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    if (!available) return urlPath === '/' || urlPath === '/index.html' ? notBuilt(dir) : undefined;
    const file = files.get(urlPath === '/' ? '/index.html' : urlPath) ?? (path.posix.extname(urlPath) === '' ? files.get('/index.html') : undefined);
    if (!file) return undefined;
    return {
      statusCode: 200,
      headers: {
        'content-type': file.type,
        'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        ...consoleSecurityHeaders(connectOrigins),
      },
      body: method === 'HEAD' ? '' : file.body,
      isBase64Encoded: true,
    };
  };
}
