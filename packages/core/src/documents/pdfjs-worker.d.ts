// pdfjs-dist ships no types for its worker entry; it is only installed on globalThis.pdfjsWorker.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs';
