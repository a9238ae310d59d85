// The Emscripten module inside libpg-query (its package ships no types for it): the few exports
// packages/core/src/pg/parser.ts calls, as the package's own wrapper calls them.
declare module 'libpg-query/wasm/libpg-query.js' {
  export interface PgQueryWasm {
    HEAPU8: Uint8Array;
    _malloc(size: number): number;
    _free(ptr: number): void;
    _wasm_parse_query_raw(sqlPtr: number): number;
    _wasm_free_parse_result(resultPtr: number): void;
    getValue(ptr: number, type: 'i32'): number;
    UTF8ToString(ptr: number): string;
  }
  /** Emscripten's module overrides: `instantiateWasm` instantiates the WebAssembly in the glue's stead. */
  export interface PgQueryModuleArg {
    instantiateWasm?(imports: object, receive: (instance: object) => void): object;
  }
  const PgQueryModule: (moduleArg?: PgQueryModuleArg) => Promise<PgQueryWasm>;
  export default PgQueryModule;
}
