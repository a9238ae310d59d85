import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { endpoints } from '../api/endpoints';
import { sendToSlot } from '../api/slot-upload';
import type { DocumentBatch, FileRejection } from '../api/types';
import { formatBytes, formatTime } from '../lib/format';
import { useAsync } from '../lib/use-async';
import { ErrorNote, Section } from './common';

/** What the service allows per batch (spec: 50 files of 10 MB each). */
const MAX_FILES = 50;
const MAX_BYTES = 10 * 1024 * 1024;
const ACCEPT = '.pdf,.md,.markdown,.txt,.text,.sql,.psql';
const POLL_MS = 1000;

type Phase = { step: 'idle' } | { step: 'sending'; sent: number; total: number } | { step: 'ingesting'; status: DocumentBatch['status'] } | { step: 'done' };

export function DocumentsView({ connectionId }: { connectionId: string }) {
  const [list, load] = useAsync(() => endpoints.documents(connectionId));
  useEffect(() => void load(), [connectionId]);
  const [removing, remove] = useAsync((documentId: string) => endpoints.deleteDocument(connectionId, documentId));

  return (
    <>
      <h1>Business documents</h1>
      <p class="muted">
        Glossaries, runbooks, reports and schema notes give the migration narrative, query advice and plain-English questions their business context.
      </p>
      <div class="grid two">
        <Section title="Stored documents">
          <ErrorNote error={list.error ?? removing.error} />
          {list.data && list.data.length === 0 && <p class="muted">No document yet: upload some.</p>}
          {list.data && list.data.length > 0 && (
            <table data-testid="documents">
              <caption class="sr-only">Documents of this connection</caption>
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col">Size</th>
                  <th scope="col">Chunks</th>
                  <th scope="col">Uploaded</th>
                  <th scope="col">Delete</th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((d) => (
                  <tr key={d.id}>
                    <td>
                      {d.filename} <span class="muted small">{d.content_type}</span>
                    </td>
                    <td>{formatBytes(d.size_bytes)}</td>
                    <td>{d.chunk_count}</td>
                    <td>{formatTime(d.uploaded_at)}</td>
                    <td class="actions">
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`Delete ${d.filename}`}
                        disabled={removing.busy}
                        onClick={async () => {
                          if (await remove(d.id)) await load();
                        }}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Section>
        <UploadForm connectionId={connectionId} onStored={() => void load()} />
      </div>
    </>
  );
}

/**
 * Upload through slots (docs/documents.md): open a batch, send each file straight to storage,
 * confirm, then follow the batch until it is ingested. Works for any batch the spec allows,
 * including ones far over a single request's 10 MB.
 */
function UploadForm({ connectionId, onStored }: { connectionId: string; onStored(): void }) {
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [phase, setPhase] = useState<Phase>({ step: 'idle' });
  const [error, setError] = useState<ApiError | null>(null);
  const [rejections, setRejections] = useState<FileRejection[]>([]);
  const [result, setResult] = useState<DocumentBatch['result']>(null);
  const busy = phase.step === 'sending' || phase.step === 'ingesting';

  const tooMany = files.length > MAX_FILES;
  const oversized = files.filter((f) => f.size > MAX_BYTES);

  const upload = async (e: Event): Promise<void> => {
    e.preventDefault();
    setError(null);
    setRejections([]);
    setResult(null);
    try {
      const batch = await endpoints.openBatch(
        connectionId,
        files.map((f) => ({ filename: f.name, size_bytes: f.size })),
      );
      const byName = new Map(files.map((f) => [f.name, f]));
      const slots = batch.slots ?? [];
      setPhase({ step: 'sending', sent: 0, total: slots.length });
      let sent = 0;
      // Two at a time: enough to keep a connection busy without flooding a slow uplink.
      // After a refusal the other sender stops taking files, and both are awaited before the
      // refusal is shown: a late progress update must not bring back 'sending' after 'idle'.
      const queue = [...slots];
      let refused = false;
      const worker = async (): Promise<void> => {
        for (let slot = queue.shift(); slot && !refused; slot = queue.shift()) {
          try {
            await sendToSlot(slot, byName.get(slot.filename)!);
          } catch (err) {
            refused = true;
            throw err;
          }
          if (!refused) setPhase({ step: 'sending', sent: ++sent, total: slots.length });
        }
      };
      const sends = await Promise.allSettled([worker(), worker()]);
      const failed = sends.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failed) throw failed.reason;
      let current = await endpoints.confirmBatch(connectionId, batch.batch_id);
      while (current.status !== 'completed' && current.status !== 'failed') {
        setPhase({ step: 'ingesting', status: current.status });
        await new Promise((r) => setTimeout(r, POLL_MS));
        current = await endpoints.batch(connectionId, batch.batch_id);
      }
      setPhase({ step: 'done' });
      if (current.status === 'failed') {
        setRejections(current.rejections);
        setError(new ApiError(422, current.error?.code ?? 'DOCUMENT_REJECTED', current.error?.message ?? 'The batch was refused; nothing was stored.'));
        return;
      }
      setResult(current.result);
      setFiles([]);
      if (input.current) input.current.value = '';
      onStored();
    } catch (err) {
      setPhase({ step: 'idle' });
      const apiError = err instanceof ApiError ? err : new ApiError(0, 'CLIENT', err instanceof Error ? err.message : String(err));
      const listed = apiError.details?.rejections;
      setRejections(Array.isArray(listed) ? (listed as FileRejection[]) : []);
      setError(apiError);
    }
  };

  return (
    <Section title="Upload documents">
      <form onSubmit={upload} class="stack">
        <label for="doc-files">PDF, Markdown, text or SQL files (up to {MAX_FILES}, 10 MB each)</label>
        <input
          id="doc-files"
          ref={input}
          type="file"
          multiple
          accept={ACCEPT}
          onChange={(e) => setFiles([...((e.currentTarget as HTMLInputElement).files ?? [])])}
        />
        {files.length > 0 && (
          <p class="muted small">
            {files.length} file(s), {formatBytes(files.reduce((n, f) => n + f.size, 0))}
          </p>
        )}
        {tooMany && <p class="note warn">At most {MAX_FILES} files per batch.</p>}
        {oversized.length > 0 && <p class="note warn">Over 10 MB: {oversized.map((f) => f.name).join(', ')}</p>}
        <button type="submit" disabled={busy || files.length === 0 || tooMany || oversized.length > 0}>
          {busy ? 'Uploading…' : 'Upload'}
        </button>
        <p class="muted small">A file with the name of a stored document replaces it. A batch is stored whole or not at all.</p>
      </form>
      <div aria-live="polite" data-testid="upload-status">
        {phase.step === 'sending' && (
          <p class="note">
            Sending files: {phase.sent} of {phase.total}
          </p>
        )}
        {phase.step === 'ingesting' && <p class="note">Reading and indexing the files ({phase.status})…</p>}
        {result && (
          <p class="note ok">
            Stored {result.files_processed} file(s), {result.total_chunks} chunk(s)
            {result.documents.some((d) => d.replaced) && `; replaced ${result.documents.filter((d) => d.replaced).length}`}.
          </p>
        )}
      </div>
      {error && (
        <div class="note error" role="alert">
          <p>
            <strong>{error.code}</strong> {error.message}
            {rejections.length === 0 && typeof error.details?.reason === 'string' && <span class="muted"> ({error.details.reason})</span>}
          </p>
          {rejections.length > 0 && (
            <ul data-testid="rejections">
              {rejections.map((r) => (
                <li key={`${r.filename}-${r.reason}`}>
                  <strong>{r.filename}</strong>: {r.message} <span class="muted">({r.reason})</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Section>
  );
}
