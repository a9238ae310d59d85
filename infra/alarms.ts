/**
 * Where alarms go: one SNS topic per stage. `DBOPS_ALARM_EMAIL` at deploy time subscribes an
 * address (AWS sends a confirmation mail first).
 */
export function createAlarmTopic() {
  const topic = new aws.sns.Topic('Alarms', { name: `dbops-${$app.stage}-alarms` });
  const email = process.env.DBOPS_ALARM_EMAIL;
  if (email) new aws.sns.TopicSubscription('AlarmsEmail', { topic: topic.arn, protocol: 'email', endpoint: email });
  return topic;
}
