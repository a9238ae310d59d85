import { viewerResponseInjection } from '../packages/web/build/security-headers';

/**
 * The web console in the cloud: packages/web built by Vite and served as a static site (S3
 * behind CloudFront) in the same stage, pointed at the stage's API by `VITE_DBOPS_API_URL`.
 * The console sends credentials as headers (X-API-Key or Authorization), never cookies, so the
 * API can allow any origin without exposing ambient credentials; the headers it reads and
 * sends are listed explicitly because a `*` in Access-Control-Allow-Headers does not cover
 * Authorization.
 */
export const API_CORS = {
  allowOrigins: ['*'],
  allowMethods: ['GET', 'POST', 'PATCH', 'DELETE'],
  allowHeaders: ['authorization', 'content-type', 'x-api-key'],
  exposeHeaders: ['x-credits-remaining', 'retry-after'],
  maxAge: '1 day',
} as const;

export const CONSOLE_SITE = {
  path: 'packages/web',
  build: { command: 'npm run build', output: 'dist' },
} as const;

/**
 * `uploadOrigin` is the upload bucket's origin: the console sends document files straight to it
 * (presigned POST, docs/documents.md), so its CSP must allow connecting there too.
 */
export function createConsole(apiUrl: $util.Input<string>, uploadOrigin: $util.Input<string>, options: { domain?: string } = {}) {
  return new sst.aws.StaticSite('Console', {
    path: CONSOLE_SITE.path,
    build: { ...CONSOLE_SITE.build },
    environment: { VITE_DBOPS_API_URL: apiUrl },
    // SST writes the env's types here at deploy; the file is git-ignored.
    vite: { types: 'src/sst-env.d.ts' },
    // The security headers the local runtime sends, with the API's and the upload bucket's origins allowed to be fetched.
    edge: {
      viewerResponse: { injection: $util.all([apiUrl, uploadOrigin]).apply(([url, upload]) => viewerResponseInjection([new URL(url).origin, upload])) },
    },
    ...(options.domain ? { domain: options.domain } : {}),
  });
}
