/** The XML S3 speaks: a few small documents, built and read without a general XML library. */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

export const unescapeXml = (text: string): string =>
  text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (e[0] !== '#') return named[e.toLowerCase()]!;
    return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
  });

/** An element tree: a string is text; an array repeats the element; an object nests elements. */
export type XmlValue = string | number | boolean | XmlValue[] | { [name: string]: XmlValue | undefined };

function element(name: string, value: XmlValue | undefined): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.map((v) => element(name, v)).join('');
  if (typeof value === 'object') {
    const inner = Object.entries(value)
      .map(([n, v]) => element(n, v))
      .join('');
    return `<${name}>${inner}</${name}>`;
  }
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

/** A whole document with S3's namespace on the root element (the error document has none, as in S3). */
export function xmlDocument(root: string, body: { [name: string]: XmlValue | undefined }): string {
  const inner = Object.entries(body)
    .map(([n, v]) => element(n, v))
    .join('');
  const ns = root === 'Error' ? '' : ' xmlns="http://s3.amazonaws.com/doc/2006-03-01/"';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root}${ns}>${inner}</${root}>`;
}

/** The text of every `<name>` element, in order (flat: for bodies like DeleteObjects' `<Object><Key>`). */
export function elementTexts(xml: string, name: string): string[] {
  const out: string[] = [];
  const pattern = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`, 'g');
  for (const m of xml.matchAll(pattern)) out.push(unescapeXml(m[1]!));
  return out;
}
