import { z } from 'zod';

/**
 * The shapes one environment variable can take. Every reader treats an empty string as unset,
 * so `FOO=` in a .env file means "use the default", as it did before settings were parsed here.
 */
const unsetIfEmpty = (v: unknown): unknown => (v === '' ? undefined : v);

/** An integer at least `min`, or `fallback` when unset. */
export const integer = (fallback: number, min: number) =>
  z.preprocess(
    unsetIfEmpty,
    z.coerce
      .number({ error: `must be a whole number >= ${min}` })
      .int(`must be a whole number >= ${min}`)
      .min(min, `must be a whole number >= ${min}`)
      .default(fallback),
  );

/** An integer at least `min`, or undefined when unset (the feature picks its own default). */
export const optionalInteger = (min: number) =>
  z.preprocess(
    unsetIfEmpty,
    z.coerce
      .number({ error: `must be a whole number >= ${min}` })
      .int(`must be a whole number >= ${min}`)
      .min(min, `must be a whole number >= ${min}`)
      .optional(),
  );

/** A number (fractions allowed) at least `min`, or undefined when unset. */
export const optionalNumber = (min: number) =>
  z.preprocess(
    unsetIfEmpty,
    z.coerce
      .number({ error: `must be a number >= ${min}` })
      .min(min, `must be a number >= ${min}`)
      .optional(),
  );

/** A number (fractions allowed) at least `min`, or `fallback` when unset. */
export const number = (fallback: number, min: number) =>
  z.preprocess(
    unsetIfEmpty,
    z.coerce
      .number({ error: `must be a number >= ${min}` })
      .min(min, `must be a number >= ${min}`)
      .default(fallback),
  );

/** `true`/`1` or `false`/`0` (any case), or undefined when unset. */
export const flag = () =>
  z.preprocess(
    (v) =>
      typeof v === 'string' ? (({ true: true, '1': true, false: false, '0': false } as Record<string, boolean>)[v.trim().toLowerCase()] ?? v) : unsetIfEmpty(v),
    z.boolean({ error: 'must be true or false' }).optional(),
  );

/** One of `values`, or `fallback` when unset. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z.preprocess(unsetIfEmpty, z.enum(values, { error: `must be one of ${values.join(', ')}` }).default(fallback as never));

/** Free text, or undefined when unset or empty. */
export const text = () => z.preprocess(unsetIfEmpty, z.string().optional());

/** A comma-separated list, trimmed and lower-cased, empty entries dropped. */
export const lowerCaseList = () =>
  z.preprocess(unsetIfEmpty, z.string().optional()).transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
