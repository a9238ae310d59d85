import pg from 'pg';

/** A value of the SQL execution result, as JSON carries it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };

type Parser = (text: string) => JsonValue;

const asString: Parser = (t) => t;
const asInt: Parser = (t) => Number.parseInt(t, 10);
const asBool: Parser = (t) => t === 't' || t === 'true';
/** NaN and ±Infinity have no JSON number: they stay strings, as PostgreSQL writes them. */
const asFloat: Parser = (t) => {
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
};
const asJson: Parser = (t) => JSON.parse(t) as JsonValue;

/** `2024-01-02 03:04:05.123456` -> `2024-01-02T03:04:05.123456` (DateStyle ISO is set per session). */
const asTimestamp: Parser = (t) => (/^\d{4,}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/.test(t) ? t.replace(' ', 'T') : t);
/** `... +05:30` / `+00` -> ISO 8601 offsets `+05:30` / `+00:00`; infinity and BC dates stay as written. */
const asTimestamptz: Parser = (t) => {
  const m = /^(\d{4,}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)([+-]\d\d)(?::?(\d\d))?(?::(\d\d))?$/.exec(t);
  if (!m || m[5]) return t;
  return `${m[1]}T${m[2]}${m[3]}:${m[4] ?? '00'}`;
};
const asTimetz: Parser = (t) => {
  const m = /^(\d\d:\d\d:\d\d(?:\.\d+)?)([+-]\d\d)(?::?(\d\d))?$/.exec(t);
  return m ? `${m[1]}${m[2]}:${m[3] ?? '00'}` : t;
};

const SCALARS: Record<number, Parser> = {
  16: asBool,
  21: asInt, // int2
  23: asInt, // int4
  26: asInt, // oid
  700: asFloat,
  701: asFloat,
  114: asJson,
  3802: asJson,
  1114: asTimestamp,
  1184: asTimestamptz,
  1266: asTimetz,
  // int8, numeric, money, bytea (hex), date, time, interval (iso_8601), uuid, text...: the text form as is.
};

/** Array type OID -> element type OID, for the element types that are not plain strings. */
const ARRAYS: Record<number, number> = {
  1000: 16,
  1005: 21,
  1007: 23,
  1028: 26,
  1021: 700,
  1022: 701,
  199: 114,
  3807: 3802,
  1115: 1114,
  1185: 1184,
  1270: 1266,
  1016: 20,
  1231: 1700,
  1001: 17,
  1182: 1082,
  1183: 1083,
  1187: 1186,
  1009: 25,
  1015: 1043,
  1014: 1042,
  2951: 2950,
  1002: 18,
  1003: 19,
};

interface ArrayParserModule {
  arrayParser: { create(source: string, transform: (v: string) => unknown): { parse(): unknown[] } };
}
const arrays = (pg.types as unknown as ArrayParserModule).arrayParser;

/**
 * The JSON form of a value of type `oid` in PostgreSQL's text format:
 * - bool, int2/int4/oid, float4/float8 (finite) -> JSON booleans and numbers;
 * - int8, numeric, money -> strings (no precision is lost);
 * - json/jsonb -> JSON;
 * - timestamp/timestamptz/timetz -> ISO 8601 strings; date, time, interval (ISO 8601 style) as written;
 * - bytea -> PostgreSQL's hex form `\x...`;
 * - arrays of the above -> JSON arrays; anything else -> its text form.
 */
export function jsonParserFor(oid: number): Parser {
  const scalar = SCALARS[oid];
  if (scalar) return scalar;
  const element = ARRAYS[oid];
  if (element !== undefined) {
    const inner = SCALARS[element] ?? asString;
    return (t) => arrays.create(t, (v) => (v === null ? null : inner(v))).parse() as JsonValue[];
  }
  return asString;
}
