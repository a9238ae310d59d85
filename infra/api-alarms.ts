import { pascalName } from './route-plan';

/** API 5xx answers, function errors and throttles; on in staging and production. */
export function createApiAlarms(api: sst.aws.ApiGatewayV2, functions: ReadonlyMap<string, sst.aws.Function>, topic: aws.sns.Topic) {
  const common = {
    period: 300,
    evaluationPeriods: 1,
    comparisonOperator: 'GreaterThanThreshold',
    treatMissingData: 'notBreaching',
    alarmActions: [topic.arn],
    okActions: [topic.arn],
  };
  new aws.cloudwatch.MetricAlarm('Api5xxAlarm', {
    ...common,
    alarmDescription: 'API Gateway answered 5xx',
    namespace: 'AWS/ApiGateway',
    metricName: '5xx',
    dimensions: { ApiId: api.nodes.api.id },
    statistic: 'Sum',
    threshold: 5,
  });
  // One alarm per function: alarms on metric math take at most 10 metrics.
  for (const [handler, fn] of functions) {
    new aws.cloudwatch.MetricAlarm(`${pascalName(handler)}ErrorsAlarm`, {
      ...common,
      alarmDescription: $interpolate`${fn.name}: errors or throttles`,
      metricQueries: [
        { id: 'errors', metric: { namespace: 'AWS/Lambda', metricName: 'Errors', dimensions: { FunctionName: fn.name }, period: 300, stat: 'Sum' } },
        { id: 'throttles', metric: { namespace: 'AWS/Lambda', metricName: 'Throttles', dimensions: { FunctionName: fn.name }, period: 300, stat: 'Sum' } },
        { id: 'total', expression: 'errors + throttles', returnData: true },
      ],
      threshold: 0,
    });
  }
}
