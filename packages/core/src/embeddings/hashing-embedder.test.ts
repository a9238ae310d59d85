import { describe, expect, it } from 'vitest';
import { cosine, HashingEmbedder, tokenize } from './hashing-embedder';

describe('HashingEmbedder', () => {
  const e = new HashingEmbedder();

  it('is deterministic and normalised', async () => {
    const [a, b] = await e.embed(['orders by customer', 'orders by customer']);
    expect(a).toEqual(b);
    expect(Math.hypot(...(a ?? []))).toBeCloseTo(1, 6);
    expect(a).toHaveLength(384);
  });

  it('puts texts that share identifiers closer than unrelated ones', () => {
    const q = e.embedOne('how many orders did each customer place');
    const orders = e.embedOne('table public.orders: id, customer_id references customers, total numeric, created_at');
    const logs = e.embedOne('table public.audit_log: id, actor text, payload jsonb');
    expect(cosine(q, orders)).toBeGreaterThan(cosine(q, logs));
  });

  it('splits identifiers the way people write them', () => {
    expect(tokenize('orderItems order_items "OrderItems"')).toEqual(['order', 'items', 'order', 'items', 'order', 'items']);
  });
});
