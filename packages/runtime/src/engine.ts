/**
 * The one module that knows the engine: quickjs-emscripten, the variant with the WebAssembly embedded in the module
 * (no file to fetch, so it loads the same way in Node workers, Deno and a browser bundle).
 *
 * Every sandbox gets its own WebAssembly instance over its own non-growable memory. QuickJS's own heap limit does not
 * hold under Emscripten (its allocator reports no block sizes, so the running total never grows), so the memory the
 * instance may use is the limit: a connector that exhausts it gets QuickJS's out-of-memory error, and a failure inside
 * one instance can never reach another. The WebAssembly is compiled once per thread and instantiated per sandbox.
 */
import variant from '@jitl/quickjs-singlefile-mjs-release-sync';
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';

const PAGE = 65536;
/** The variant's own minimum memory (static data, the C stack, the allocator's start). */
const BASE_PAGES = 256;

let compiled: Promise<WebAssembly.Module> | undefined;

/**
 * The embedded variant compiles its bytes itself and does not hand them out; the first instantiation is observed once
 * to keep the compiled module, and later instances are made from it through Emscripten's `instantiateWasm` hook.
 */
const compileOnce = (): Promise<WebAssembly.Module> => {
  compiled ??= (async () => {
    const original = WebAssembly.instantiate;
    let module: WebAssembly.Module | undefined;
    const observe = async (bytes: BufferSource, imports?: WebAssembly.Imports) => {
      const result = await original(bytes, imports);
      module ??= result.module;
      return result;
    };
    Object.assign(WebAssembly, { instantiate: observe });
    try {
      await newQuickJSWASMModuleFromVariant(variant);
    } finally {
      Object.assign(WebAssembly, { instantiate: original });
    }
    if (module === undefined) throw new Error('the QuickJS WebAssembly module could not be compiled');
    return module;
  })();
  return compiled;
};

/** A fresh engine instance whose whole memory is `memoryBytes` above the variant's base. */
export const newEngine = async (memoryBytes: number): Promise<QuickJSWASMModule> => {
  const module = await compileOnce();
  const memory = new WebAssembly.Memory({
    initial: BASE_PAGES,
    maximum: BASE_PAGES + Math.ceil(memoryBytes / PAGE),
  });
  // Emscripten's hook has no way to report a failure; the race carries it instead.
  let fail: (error: unknown) => void = () => undefined;
  const failed = new Promise<never>((_resolve, reject) => {
    fail = reject;
  });
  return Promise.race([
    failed,
    newQuickJSWASMModuleFromVariant(
      newVariant(variant, {
        wasmMemory: memory,
        emscriptenModule: {
          instantiateWasm: (
            imports: WebAssembly.Imports,
            receive: (instance: WebAssembly.Instance) => void,
          ) => {
            WebAssembly.instantiate(module, imports).then(receive, fail);
            return {};
          },
        },
      }),
    ),
  ]);
};
