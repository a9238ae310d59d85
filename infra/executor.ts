import { type ServiceRuntime, functionArgs } from './function-defaults';
import { EXECUTOR_MODULE, installFor, lambdaHandler } from './route-plan';
import { EXECUTOR_TIMEOUT_MINUTES } from './queue';

/**
 * The migration executor: one job per invocation (batch size 1) with partial batch responses,
 * so a failed job is retried alone and, after the queue's receive limit, lands in the DLQ.
 */
export function subscribeExecutor(rt: ServiceRuntime, queue: sst.aws.Queue, dependsOn: $util.Input<$util.Resource>[]) {
  return queue.subscribe(
    functionArgs(rt, {
      handler: lambdaHandler(EXECUTOR_MODULE),
      description: 'dbops migration executor (SQS)',
      memoryMb: 1024,
      timeoutSeconds: EXECUTOR_TIMEOUT_MINUTES * 60,
      install: installFor('executor'),
      grants: { kms: true, secrets: true },
    }),
    { batch: { size: 1, partialResponses: true } },
    { dependsOn },
  );
}
