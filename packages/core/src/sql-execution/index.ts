export { type ExecuteResult } from './execute-sql';
export { executeOnConnection } from './run-on-connection';
export { answerBudget } from './time-budget';
