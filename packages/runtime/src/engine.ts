/**
 * The one module that knows the engine: quickjs-emscripten, the variant with the WebAssembly embedded in the module
 * (no file to fetch, so it loads the same way in Node workers, Deno and a browser bundle).
 *
 * Every sandbox gets its own WebAssembly instance over its own non-growable memory. QuickJS's own heap limit does not
 * hold under Emscripten (its allocator reports no block sizes, so the running total never grows), so the memory the
 * instance may use is the limit: a connector that exhausts it gets QuickJS's out-of-memory error, and a failure inside
 * one instance can never reach another. The WebAssembly is compiled once per thread and instantiated per sandbox,
 * except that an instance whose interpreter was freed cleanly serves the thread's next sandbox (`recycleEngine`).
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

/**
 * Instances whose last interpreter was freed cleanly, ready for this thread's next sandbox. A new instance and memory
 * per sandbox cost a few milliseconds, and every discarded memory (16 MiB and up, outside the JavaScript heap) pushes
 * V8 toward a full garbage collection of the whole thread, which in a server is far dearer. Reuse is safe: the next
 * sandbox gets a new QuickJS runtime, so nothing of the last interpreter's state survives; its freed heap belongs to
 * the allocator, and QuickJS never hands a script memory it has not initialised. An instance whose interpreter hit a
 * limit, or could not be freed, is never offered (the sandbox does not recycle it). Bounded in number and in uses.
 */
const spares: { memoryBytes: number; engine: QuickJSWASMModule }[] = [];
const uses = new WeakMap<QuickJSWASMModule, number>();
const MAX_SPARES = 2;
const MAX_USES = 64;

/** Offers an instance whose interpreter was freed cleanly to the thread's next sandbox of the same memory size. */
export const recycleEngine = (engine: QuickJSWASMModule, memoryBytes: number): void => {
  const used = (uses.get(engine) ?? 1) + 1;
  if (used > MAX_USES || spares.length >= MAX_SPARES) return;
  uses.set(engine, used);
  spares.push({ memoryBytes, engine });
};

/** The memory size a blank instance is kept ready for (`keepEngineReady`), if any, and the one being made. */
let readySize: number | undefined;
let preparing: Promise<QuickJSWASMModule | undefined> | undefined;

/**
 * Keeps one blank instance of `memoryBytes` ready on this thread from now on, made again in the background each time a
 * sandbox takes it: a new instance (its memory, Emscripten's start) is 3–4 ms of the 20 ms a 200 KB connector's cold
 * start takes, which the cold start then does not wait for. For a long-lived thread that runs sandboxes (the server's runtime workers); a
 * one-shot tool has no use for it. The instance belongs to no connector: nothing of any script is prepared ahead.
 */
export const keepEngineReady = (memoryBytes: number): void => {
  readySize = memoryBytes;
  prepareSpare();
};

const takeSpare = (memoryBytes: number): QuickJSWASMModule | undefined => {
  const spare = spares.findIndex((candidate) => candidate.memoryBytes === memoryBytes);
  return spare >= 0 ? spares.splice(spare, 1)[0]!.engine : undefined;
};

const prepareSpare = (): void => {
  const size = readySize;
  if (size === undefined || preparing || spares.length >= MAX_SPARES) return;
  if (spares.some((spare) => spare.memoryBytes === size)) return;
  // After the sandbox that took the last one has run (a task later): made meanwhile, it would delay that call.
  preparing = new Promise<void>((resolve) => setTimeout(resolve, 0))
    .then(() => instantiate(size))
    .then(
      (engine) => {
        preparing = undefined;
        if (spares.length < MAX_SPARES) spares.push({ memoryBytes: size, engine });
        return engine;
      },
      () => {
        // The next sandbox makes its own instance and reports what fails.
        preparing = undefined;
        return undefined;
      },
    );
};

/**
 * An engine instance whose whole memory is `memoryBytes` above the variant's base: a spare, the one being made for
 * this size, or a fresh one.
 */
export const newEngine = async (memoryBytes: number): Promise<QuickJSWASMModule> => {
  let engine = takeSpare(memoryBytes);
  if (engine === undefined && preparing && readySize === memoryBytes) {
    await preparing;
    engine = takeSpare(memoryBytes);
  }
  engine ??= await instantiate(memoryBytes);
  prepareSpare();
  return engine;
};

/**
 * What Emscripten would write on the host's stderr, kept off it. Its one message in practice is QuickJS reporting, as
 * a sandbox ends, an interpreter it could not free: objects leak inside an instance once a `JSON.stringify` of 4 MiB
 * or more has run in a promise job (a call's result of that size, which the prelude serializes so, or a connector's
 * own in async code; plain quickjs-emscripten does the same). The sandbox already drops such an instance (sandbox.ts
 * `releaseVm`), and an abort is thrown as an error as well, so the line told an operator nothing: it only alarmed
 * them, in no log's format and naming no connector. Spread into the module's options: Emscripten reads `printErr`
 * there, though the loader's option type does not list it.
 */
const silent = { printErr: () => undefined };

const instantiate = async (memoryBytes: number): Promise<QuickJSWASMModule> => {
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
          ...silent,
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
