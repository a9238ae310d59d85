/** `pg`'s own parameter preparation (exported as `pg/lib/utils`; @types/pg does not declare it). */
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): string | Buffer | null };
  export default utils;
}
