export { type BuiltFunctions, type CloudRuntime, type CloudRuntimeOptions, startCloudRuntime } from './cloud-runtime';
export { type FunctionSpec, type InstanceStats, InvokeError, LocalLambdaService } from './lambda-service';
export { EventSourceMapping, LocalQueue, LocalSqs, type QueueEvent } from './local-sqs';
export { type BucketOptions, type LifecycleRule, LocalS3, type LocalS3Options } from './s3/local-s3';
export { type CorsRule } from './s3/bucket-cors';
export { DEFAULT_PG_BIN, startStateServer, stateServerUnavailable } from './state-server';
