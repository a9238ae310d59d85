import type { ComponentChildren } from 'preact';
import type { ApiError } from '../api/client';

export function ErrorNote({ error }: { error: ApiError | null }) {
  if (!error) return null;
  return (
    <p class="note error" role="alert">
      <strong>{error.code}</strong> {error.message}
    </p>
  );
}

export function Section({ title, id, children }: { title: string; id?: string; children: ComponentChildren }) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-h`;
  return (
    <section class="card" aria-labelledby={headingId} id={id}>
      <h3 id={headingId}>{title}</h3>
      {children}
    </section>
  );
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const copy = async (e: Event): Promise<void> => {
    const button = e.currentTarget as HTMLButtonElement;
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Copy failed: select the text';
    }
    setTimeout(() => (button.textContent = label), 2000);
  };
  return (
    <button type="button" class="secondary" onClick={copy}>
      {label}
    </button>
  );
}
