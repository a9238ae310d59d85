import { loadSettings } from '@dbops/core/config';
import { describe, expect, it } from 'vitest';
import type { Container } from '../container';
import { getEmbedder } from './embedder';
import { getKeyProvider } from './key-provider';

const container = (env: Record<string, string>): Container =>
  ({ settings: loadSettings({ DBOPS_HOME: '/tmp/dbops-port-test', ...env }) }) as unknown as Container;

describe('port selection', () => {
  it('uses the local key file by default and KMS when DBOPS_KMS_KEY_ID is set', () => {
    expect(getKeyProvider(container({})).name).toBe('local-key-file');
    expect(getKeyProvider(container({ DBOPS_KMS_KEY_ID: 'alias/dbops' })).name).toBe('aws-kms');
  });

  it('uses the hashing embedder by default and OpenAI with DBOPS_EMBEDDINGS=openai', async () => {
    expect(getEmbedder(container({})).model).toBe('dbops-hashing-v1');
    const openai = getEmbedder(container({ DBOPS_EMBEDDINGS: 'openai', DBOPS_OPENAI_API_KEY: 'sk-test', DBOPS_EMBEDDINGS_MODEL: 'text-embedding-3-large' }));
    expect(openai.model).toBe('text-embedding-3-large');
    expect(openai.dimension).toBe(384);
    await expect(getEmbedder(container({ DBOPS_EMBEDDINGS: 'openai' })).embed(['x'])).rejects.toThrow(/DBOPS_OPENAI_API_KEY/);
  });
});
