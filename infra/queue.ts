/** Receives per message before a migration job goes to the dead-letter queue. */
export const MAX_RECEIVES = 3;

/** Longest a migration job may run (Lambda's maximum is 15 minutes). */
export const EXECUTOR_TIMEOUT_MINUTES = 14;

/**
 * The migration job queue and its dead-letter queue, both encrypted with the service key.
 * The visibility timeout exceeds the executor's timeout, as Lambda's event source mapping
 * requires, so a job still running is never handed to a second executor.
 */
export function createQueues(key: aws.kms.Key, alarmTopic: aws.sns.Topic) {
  const deadLetter = new sst.aws.Queue('MigrationDeadLetter', {
    transform: {
      queue: (args) => {
        args.messageRetentionSeconds = 14 * 24 * 3600;
        args.kmsMasterKeyId = key.arn;
      },
    },
  });
  const queue = new sst.aws.Queue('MigrationQueue', {
    visibilityTimeout: `${EXECUTOR_TIMEOUT_MINUTES + 1} minutes`,
    dlq: { queue: deadLetter.arn, retry: MAX_RECEIVES },
    transform: {
      queue: (args) => {
        args.kmsMasterKeyId = key.arn;
        args.kmsDataKeyReusePeriodSeconds = 3600;
      },
    },
  });

  // Any message in the DLQ is a migration request that never finished: someone must look.
  new aws.cloudwatch.MetricAlarm('MigrationDeadLetterAlarm', {
    alarmDescription: 'Migration jobs reached the dead-letter queue',
    namespace: 'AWS/SQS',
    metricName: 'ApproximateNumberOfMessagesVisible',
    dimensions: { QueueName: deadLetter.nodes.queue.name },
    statistic: 'Maximum',
    period: 60,
    evaluationPeriods: 1,
    threshold: 0,
    comparisonOperator: 'GreaterThanThreshold',
    treatMissingData: 'notBreaching',
    alarmActions: [alarmTopic.arn],
    okActions: [alarmTopic.arn],
  });
  return { queue, deadLetter };
}
