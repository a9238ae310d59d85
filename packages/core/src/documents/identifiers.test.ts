import { describe, expect, it } from 'vitest';
import { bareTableName, identifierTokens, mentionedTables } from './identifiers';

describe('identifier mentions', () => {
  it('matches whole identifiers only, case-insensitively, qualified or quoted', () => {
    const text = 'Rows of "Orders" move to public.order_items; see orders_archive.';
    expect(identifierTokens(text)).toEqual(expect.arrayContaining(['orders', 'public', 'order_items', 'orders_archive']));
    expect(mentionedTables(text, ['orders', 'public.order_items', 'order', 'items', 'archive'])).toEqual(['orders', 'public.order_items']);
    expect(bareTableName('sales."Orders"')).toBe('orders');
  });
});
