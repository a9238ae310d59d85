import { vector } from '@electric-sql/pglite/vector';

/** Extensions every embedded instance loads. */
export const pgliteExtensions = { vector };
