import { API_CORS } from './console';
import { type ServiceRuntime, functionArgs } from './function-defaults';
import { asSandboxImageFunction, usesSandboxImage } from './sandbox-image';
import { AUTHORIZER_MODULES, type AuthorizerName, lambdaHandler, installFor, pascalName, planFunctions, planRoutes } from './route-plan';

/**
 * Authorizer settings. TTL 0 turns API Gateway's cache off: a revoked API key or a user's
 * removed access fails on the very next request instead of after the cache expires. With the
 * cache off no identity source is required, so we list none: every request reaches the
 * authorizer, including one without credentials (denied as "Missing credentials") and an API
 * key sent to a JWT-only route (denied: API keys cannot manage API keys). Listing identity
 * sources would make them all mandatory, and the API-key-or-JWT authorizer accepts either.
 */
export const AUTHORIZER_SETTINGS = { response: 'simple', ttl: '0 seconds', payload: '2.0', identitySources: [] as string[] } as const;

/**
 * The HTTP API: one route per entry of the route table, one function per handler module, the
 * two Lambda authorizers, and no authorizer on `auth: none` routes (health, Stripe webhook).
 */
export function createApi(rt: ServiceRuntime, options: { domain?: { name: string; cert?: string }; dependsOn?: $util.Input<$util.Resource>[] }) {
  const api = new sst.aws.ApiGatewayV2('Api', {
    accessLog: { retention: rt.settings.logRetention },
    // The web console (infra/console.ts) calls the API from its CloudFront origin.
    cors: {
      ...API_CORS,
      allowOrigins: [...API_CORS.allowOrigins],
      allowMethods: [...API_CORS.allowMethods],
      allowHeaders: [...API_CORS.allowHeaders],
      exposeHeaders: [...API_CORS.exposeHeaders],
    },
    ...(options.domain
      ? { domain: options.domain.cert ? { name: options.domain.name, cert: options.domain.cert, dns: false as const } : { name: options.domain.name } }
      : {}),
  });

  const authorizerIds = {} as Record<AuthorizerName, $util.Output<string>>;
  for (const [name, file] of Object.entries(AUTHORIZER_MODULES) as [AuthorizerName, string][]) {
    const authorizer = api.addAuthorizer({
      name: pascalName(name),
      lambda: {
        ...AUTHORIZER_SETTINGS,
        identitySources: [...AUTHORIZER_SETTINGS.identitySources],
        function: functionArgs(rt, {
          handler: lambdaHandler(file),
          description: `dbops authorizer ${name}`,
          memoryMb: 512,
          timeoutSeconds: 10,
          install: installFor(name),
          grants: {},
        }),
      },
    });
    authorizerIds[name] = authorizer.id;
  }

  const functions = new Map<string, sst.aws.Function>();
  for (const plan of planFunctions()) {
    const args = functionArgs(rt, {
      handler: plan.lambdaHandler,
      description: `dbops ${plan.handlerName}`,
      memoryMb: plan.sizing.memoryMb,
      timeoutSeconds: plan.sizing.timeoutSeconds,
      install: plan.install,
      grants: {
        kms: true,
        secrets: true,
        enqueue: plan.enqueues,
        enqueueDocuments: plan.enqueuesDocuments,
        ...(plan.uploads ? { uploads: plan.uploads } : {}),
      },
    });
    // The analysis function runs the sandbox on PostgreSQL of the target's version: it alone is
    // the container image with the engines (not under `sst dev`, which runs functions locally).
    const image = rt.sandboxImageUri && usesSandboxImage(plan.handlerName) && !$dev;
    functions.set(
      plan.handlerName,
      new sst.aws.Function(plan.functionName, image ? asSandboxImageFunction(args, rt, rt.sandboxImageUri!) : args, { dependsOn: options.dependsOn ?? [] }),
    );
  }

  for (const route of planRoutes()) {
    const fn = functions.get(route.handlerName)!;
    api.route(route.routeKey, fn.arn as $util.Output<`arn:${string}`>, {
      // Named after the route key, so names stay unique even if a module serves several routes.
      name: `Route${pascalName(`${route.method.toLowerCase()} ${route.path}`)}`,
      ...(route.authorizer ? { auth: { lambda: authorizerIds[route.authorizer] } } : {}),
    });
  }
  return { api, functions };
}
