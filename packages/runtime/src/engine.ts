/**
 * The one module that knows the engine: quickjs-emscripten, the variant with the WebAssembly embedded in the module
 * (no file to fetch, so it loads the same way in Node workers, Deno and a browser bundle). The WebAssembly module is
 * compiled once per host thread; every sandbox gets its own QuickJS runtime, so each has its own heap limit.
 */
import variant from '@jitl/quickjs-singlefile-mjs-release-sync';
import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';

let engine: Promise<QuickJSWASMModule> | undefined;

export const loadEngine = (): Promise<QuickJSWASMModule> => {
  engine ??= newQuickJSWASMModuleFromVariant(variant);
  return engine;
};
