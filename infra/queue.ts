/** Receives per message before a migration job goes to the dead-letter queue. */
export const MAX_RECEIVES = 3;

/** Longest a migration job may run (Lambda's maximum is 15 minutes). */
export const EXECUTOR_TIMEOUT_MINUTES = 14;

/**
 * A job queue with its dead-letter queue (both encrypted with the service key) and an alarm on
 * any message reaching the dead-letter queue: a job that never finished, which someone must look
 * at. The visibility timeout exceeds the consumer's timeout, as Lambda's event source mapping
 * requires, so a job still running is never handed to a second consumer.
 */
export function createJobQueue(
  name: string,
  options: { key: aws.kms.Key; alarmTopic: aws.sns.Topic; consumerTimeoutMinutes: number; maxReceives: number; alarmDescription: string },
) {
  const { key, alarmTopic } = options;
  const deadLetter = new sst.aws.Queue(`${name}DeadLetter`, {
    transform: {
      queue: (args) => {
        args.messageRetentionSeconds = 14 * 24 * 3600;
        args.kmsMasterKeyId = key.arn;
      },
    },
  });
  const queue = new sst.aws.Queue(`${name}Queue`, {
    visibilityTimeout: `${options.consumerTimeoutMinutes + 1} minutes`,
    dlq: { queue: deadLetter.arn, retry: options.maxReceives },
    transform: {
      queue: (args) => {
        args.kmsMasterKeyId = key.arn;
        args.kmsDataKeyReusePeriodSeconds = 3600;
      },
    },
  });
  new aws.cloudwatch.MetricAlarm(`${name}DeadLetterAlarm`, {
    alarmDescription: options.alarmDescription,
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

/** The migration job queue and its dead-letter queue. */
export function createQueues(key: aws.kms.Key, alarmTopic: aws.sns.Topic) {
  return createJobQueue('Migration', {
    key,
    alarmTopic,
    consumerTimeoutMinutes: EXECUTOR_TIMEOUT_MINUTES,
    maxReceives: MAX_RECEIVES,
    alarmDescription: 'Migration jobs reached the dead-letter queue',
  });
}
