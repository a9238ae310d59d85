export { type BuiltFunctions, type CloudRuntime, type CloudRuntimeOptions, startCloudRuntime } from './cloud-runtime';
export { type FunctionSpec, type InstanceStats, InvokeError, LocalLambdaService } from './lambda-service';
export { EventSourceMapping, LocalQueue, LocalSqs, type QueueEvent } from './local-sqs';
export { DEFAULT_PG_BIN, startStateServer, stateServerUnavailable } from './state-server';
