export { type GeneratedSql, type GenerationRequest, type SqlGenerator } from './language-model';
export { OfflineSqlGenerator } from './offline/offline-generator';
export { buildUserPrompt, SYSTEM_PROMPT } from './prompt';
export { runTextToSql } from './text-to-sql-pipeline';
export { type TextToSqlResult } from './text-to-sql-result';
