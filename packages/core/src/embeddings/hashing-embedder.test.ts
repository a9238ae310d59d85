import { createHash } from 'node:crypto';
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

  it('keeps the vectors of dbops-hashing-v1 bit for bit (stored vectors and text-to-SQL depend on them)', async () => {
    // Digest of the float64 components produced by the original string-building implementation.
    const texts = [
      'How many orders did each customer place?',
      'table public.order_items: id, order_id references orders, quantity integer, unitPrice numeric',
      'Refunds are approved weekly by the finance team; see ledger_entries.',
      'ÄÖÜ naïve café ﬁne 日本語 🎉 studies studied studying boxes watches',
      '',
    ];
    const hash = createHash('sha256');
    for (const v of await e.embed(texts)) hash.update(new Float64Array(v));
    expect(hash.digest('hex')).toBe('48d3fc31dfe4a858e979ef7882b8febf2b53945d3e700ec23f2c1aa307ec0869');
  });
});
