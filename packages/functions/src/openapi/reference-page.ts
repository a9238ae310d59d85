import type { OpenApiDocument } from './build-document';

type Json = Record<string, unknown>;

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const AUTH_LABEL = (security: unknown): string => {
  const schemes = (security as Json[]).flatMap((s) => Object.keys(s));
  if (schemes.length === 0) return 'no authentication';
  return schemes.map((s) => (s === 'apiKey' ? 'X-API-Key' : 'Bearer JWT')).join(' or ');
};

const schemaBlock = (schema: unknown): string => `<pre><code>${escapeHtml(JSON.stringify(schema, null, 2))}</code></pre>`;

/** A success body described by the route table's response schema (not the generic envelope `$ref`). */
const successSchema = (code: string, content: Record<string, { schema?: Json }> | undefined): string => {
  const schema = content?.['application/json']?.schema;
  return code.startsWith('2') && schema && (schema.properties || schema.items || schema.anyOf) ? schemaBlock(schema) : '';
};

function operationHtml(path: string, method: string, op: Json): string {
  const params = (op.parameters as Json[] | undefined) ?? [];
  const body = op.requestBody as { content: Record<string, { schema: unknown }> } | undefined;
  const responses = Object.entries(op.responses as Record<string, { description: string; content?: Record<string, { schema?: Json }> }>);
  const anchor = String(op.operationId);
  return `<section class="op" id="${escapeHtml(anchor)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(String(op.summary))}. Auth: ${AUTH_LABEL(op.security)}.${op['x-dbops-billable'] ? ' <strong>Billable</strong>.' : ''}</p>
${params.length ? `<h4>Parameters</h4><ul>${params.map((p) => `<li><code>${escapeHtml(String(p.name))}</code> (${escapeHtml(String(p.in))}${p.required ? ', required' : ''}): <code>${escapeHtml(JSON.stringify(p.schema))}</code></li>`).join('')}</ul>` : ''}
${
  body
    ? Object.entries(body.content)
        .map(([type, c]) => `<h4>Body (${escapeHtml(type)})</h4>${schemaBlock(c.schema)}`)
        .join('')
    : ''
}
<h4>Responses</h4><ul>${responses.map(([code, r]) => `<li><code>${escapeHtml(code)}</code> ${escapeHtml(r.description)}${successSchema(code, r.content)}</li>`).join('')}</ul>
</section>`;
}

/**
 * A readable reference of the API, rendered from the OpenAPI document on the server: no
 * script, no external assets, so it works offline and under a strict CSP.
 */
export function renderReferencePage(doc: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  const toc: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = String((op.tags as string[] | undefined)?.[0] ?? 'service');
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)?.push(operationHtml(path, method, op));
      toc.push(`<li><a href="#${escapeHtml(String(op.operationId))}">${method.toUpperCase()} ${escapeHtml(path)}</a></li>`);
    }
  }
  const info = doc.info as { title: string; version: string; description: string };
  // Named schemas that bodies reference (`#/components/schemas/PlanNode`, the error bodies...).
  const shared = Object.entries(((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>).map(
    ([name, schema]) => `<section class="op" id="schema-${escapeHtml(name)}"><h3><code>${escapeHtml(name)}</code></h3>${schemaBlock(schema)}</section>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#fff;display:grid;grid-template-columns:minmax(14rem,20rem) 1fr}
nav{border-right:1px solid #d0d7de;padding:1rem;height:100vh;overflow:auto;position:sticky;top:0;font-size:13px}
nav ul{list-style:none;padding:0;margin:0}nav a{color:#0b5cad;text-decoration:none}nav a:focus,nav a:hover{text-decoration:underline}
main{padding:1rem 2rem;max-width:60rem}.op{border-top:1px solid #d0d7de;padding:.5rem 0}
.method{display:inline-block;min-width:4.5em;text-align:center;border-radius:4px;color:#fff;background:#4b5563;font-size:12px;padding:2px 6px}
.get{background:#0f6e3a}.post{background:#0b5cad}.patch{background:#8a5a00}.delete{background:#b42318}
pre{background:#f6f8fa;padding:.75rem;overflow:auto;border-radius:6px;font-size:12px}
@media (max-width:800px){body{display:block}nav{height:auto;position:static;border:0}}
</style></head>
<body><nav aria-label="Operations"><p><strong>${escapeHtml(info.title)}</strong> ${escapeHtml(info.version)}</p><p><a href="openapi.json">openapi.json</a></p><ul>${toc.join('')}</ul></nav>
<main><h1>${escapeHtml(info.title)} API reference</h1><p>${escapeHtml(info.description)}</p>
<p>Responses use the envelope <code>{success, data, error}</code> unless marked as the spec's bare form; validation failures answer 422 with <code>{detail: [{loc, msg, type, input, ctx}]}</code>.</p>
${[...byTag.entries()].map(([tag, ops]) => `<h2>${escapeHtml(tag)}</h2>${ops.join('\n')}`).join('\n')}
<h2>Schemas</h2><p>Referenced above as <code>#/components/schemas/&lt;name&gt;</code>.</p>
${shared.join('\n')}
</main></body></html>`;
}
