import type { ServiceRuntime } from './function-defaults';
import { SANDBOX_EPHEMERAL_STORAGE_MB, SANDBOX_IMAGE_ARCHITECTURE, SANDBOX_IMAGE_HANDLERS, sandboxImageEnvironment } from './sandbox-image-plan';

/**
 * The ECR repository of the analysis function's image (infra/sandbox-image/Dockerfile). Tags are
 * immutable: a deploy names the tag it pushed (`DBOPS_SANDBOX_IMAGE_TAG`), so a function never
 * changes image behind the stack's back.
 */
export function createSandboxImageRepository(rt: Pick<ServiceRuntime, 'settings' | 'key'>) {
  return new aws.ecr.Repository('SandboxImage', {
    imageTagMutability: 'IMMUTABLE',
    imageScanningConfiguration: { scanOnPush: true },
    encryptionConfigurations: [{ encryptionType: 'KMS', kmsKey: rt.key.arn }],
    forceDelete: rt.settings.removal === 'remove',
  });
}

/** Whether `handlerName`'s function is deployed from the sandbox image. */
export const usesSandboxImage = (handlerName: string): boolean => (SANDBOX_IMAGE_HANDLERS as readonly string[]).includes(handlerName);

/**
 * Turns an SST function's arguments into the container-image function: the same role, VPC,
 * environment, permissions and log group SST makes, but the code is `imageUri` (the image's
 * CMD names the handler), on x86_64, with a larger /tmp and the sandbox engine's directories.
 * SST still bundles a zip for it; nothing uses that zip.
 */
export function asSandboxImageFunction(args: sst.aws.FunctionArgs, rt: ServiceRuntime, imageUri: $util.Input<string>): sst.aws.FunctionArgs {
  return {
    ...args,
    architecture: SANDBOX_IMAGE_ARCHITECTURE,
    environment: { ...(args.environment as Record<string, $util.Input<string>>), ...sandboxImageEnvironment() },
    transform: {
      ...args.transform,
      function: (fn) => {
        fn.kmsKeyArn = rt.key.arn;
        fn.packageType = 'Image';
        fn.imageUri = imageUri;
        fn.architectures = [SANDBOX_IMAGE_ARCHITECTURE];
        fn.ephemeralStorage = { size: SANDBOX_EPHEMERAL_STORAGE_MB };
        delete fn.handler;
        delete fn.runtime;
        delete fn.layers;
        delete fn.code;
        delete fn.s3Bucket;
        delete fn.s3Key;
      },
    },
  };
}
