/**
 * Identifier-like words of a text, lower-cased: what a table or column name looks like when a
 * person writes it in prose or SQL ("orders", "order_items", "public.orders" gives public and
 * orders). Quoted identifiers lose their quotes. Used for the exact-mention boost of ranking.
 */
export function identifierTokens(text: string): string[] {
  const seen = new Set<string>();
  for (const word of text.toLowerCase().match(/[a-z_][a-z0-9_$]*/g) ?? []) {
    if (word.length > 1 && word.length <= 63) seen.add(word);
  }
  return [...seen];
}

/**
 * The bare, lower-cased name a requested table is matched by: "public.Orders" and
 * "\"orders\"" both give "orders". The schema part is dropped because prose rarely qualifies names.
 */
export function bareTableName(name: string): string {
  const last = name.trim().split('.').at(-1) ?? '';
  return last.replace(/^"|"$/g, '').toLowerCase();
}

/** Which of `tableNames` a text names as a whole identifier ("orders" does not match "orders_archive"). */
export function mentionedTables(text: string, tableNames: readonly string[]): string[] {
  const words = new Set(identifierTokens(text));
  return tableNames.filter((t) => words.has(bareTableName(t)));
}
