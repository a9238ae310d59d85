import { loadSettings } from '@dbops/core/config';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiIndexSuggester, openAiIndexSuggesterFromSettings, parseSuggestions } from './index-suggester';

/** A local OpenAI-compatible endpoint: records the request, answers with a fixed completion. */
let server: Server;
let baseURL: string;
let lastBody: { model: string; messages: Array<{ role: string; content: string }>; response_format: unknown } | undefined;
let answer = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      lastBody = JSON.parse(raw);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 0,
          model: lastBody!.model,
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer } }],
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const input = {
  sql: `SELECT * FROM orders WHERE status = 'pending'`,
  tables: [
    {
      schema: 'public',
      name: 'orders',
      rowEstimate: 1000,
      columns: new Map([['status', { name: 'status', notNull: true, dataType: 'text', avgWidth: 8 }]]),
      indexes: [],
      foreignKeys: [],
      writes: { inserts: 0, updates: 0, deletes: 0, seqScans: 0, idxScans: 0 },
    },
  ],
  planText: 'Seq Scan on public.orders',
  documents: [{ document_id: 'd', document_filename: 'ops.md', chunk_index: 0, excerpt: 'Pending orders are polled every minute.', relevance: 0.8 }],
};

describe('OpenAiIndexSuggester', () => {
  it('sends the query, schema, plan and documents in JSON mode and parses the answer', async () => {
    answer = JSON.stringify({ indexes: [{ table: 'public.orders', columns: ['status'], where: null, reason: 'filter on status' }] });
    const s = new OpenAiIndexSuggester({ apiKey: 'sk-test', baseURL, model: 'test-model' });
    expect(await s.suggest(input)).toEqual([{ table: 'public.orders', columns: ['status'], where: null, reason: 'filter on status' }]);
    expect(lastBody!.model).toBe('test-model');
    expect(lastBody!.response_format).toEqual({ type: 'json_object' });
    const user = lastBody!.messages.find((m) => m.role === 'user')!.content;
    expect(user).toContain(input.sql);
    expect(user).toContain('public.orders (~1000 rows): status text not null');
    expect(user).toContain('[ops.md] Pending orders are polled every minute.');
  });

  it('is configured from settings only when an API key is present', () => {
    expect(openAiIndexSuggesterFromSettings(loadSettings({}))).toBeUndefined();
    expect(openAiIndexSuggesterFromSettings(loadSettings({ DBOPS_OPENAI_API_KEY: 'sk', DBOPS_OPTIMIZE_MODEL: 'm' }))?.name).toBe('openai');
  });
});

describe('parseSuggestions', () => {
  it('skips malformed answers and entries instead of throwing', () => {
    expect(parseSuggestions('not json')).toEqual([]);
    expect(parseSuggestions('{"indexes": 3}')).toEqual([]);
    expect(
      parseSuggestions(
        JSON.stringify({
          indexes: [
            { table: 1, columns: ['a'] },
            { table: 't', columns: [2] },
            { table: 't', columns: ['a'], where: ' ' },
          ],
        }),
      ),
    ).toEqual([{ table: 't', columns: ['a'], where: null, reason: 'Suggested by the language model from the query and schema.' }]);
  });
});
