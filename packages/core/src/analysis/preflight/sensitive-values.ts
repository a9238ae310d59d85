/**
 * Column names whose values are personal or secret: examples from these columns are masked in
 * reports (a report travels further than the database: CI logs, tickets, chat).
 */
const SENSITIVE =
  /(e_?mail|phone|mobile|ssn|social_sec|passw|secret|token|api_?key|card|iban|account_?n|tax|birth|dob|salary|address|street|zip|postcode|passport|licen[cs]e|national_id|ip_?addr|first_?name|last_?name|full_?name|surname|^name$)/i;

export const isSensitiveColumn = (column: string): boolean => SENSITIVE.test(column);

/** Masks a value: first character, then `***`, and for e-mail addresses the domain's last label. */
export function maskValue(value: string): string {
  if (value.length === 0) return value;
  const at = value.indexOf('@');
  if (at > 0) {
    const tld = value.slice(value.lastIndexOf('.') + 1);
    return `${value[0]}***@***.${tld.length <= 6 ? tld : '***'}`;
  }
  return `${value[0]}***`;
}

/** Renders an example value for a report: NULL, masked when the column looks sensitive, cut at 60 characters. */
export function showValue(column: string, value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  const text = typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : JSON.stringify(value);
  if (isSensitiveColumn(column)) return maskValue(text);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
