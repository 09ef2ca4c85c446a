import variant from '@jitl/quickjs-singlefile-mjs-release-sync';
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core';
import { newEngine } from '../../packages/runtime/src/engine.ts';

await newEngine(64 << 20);
// grab the compiled module through the same trick
const original = WebAssembly.instantiate;
let mod: WebAssembly.Module | undefined;
Object.assign(WebAssembly, {
  instantiate: async (b: any, i: any) => {
    const r = await original(b, i);
    mod ??= r.module;
    return r;
  },
});
await newQuickJSWASMModuleFromVariant(variant);
Object.assign(WebAssembly, { instantiate: original });
const syncEngine = (memoryBytes: number) =>
  newQuickJSWASMModuleFromVariant(
    newVariant(variant, {
      wasmMemory: new WebAssembly.Memory({ initial: 256, maximum: 256 + Math.ceil(memoryBytes / 65536) }),
      emscriptenModule: {
        instantiateWasm: (imports: any, receive: any) => {
          receive(new WebAssembly.Instance(mod!, imports));
          return {};
        },
      },
    }),
  );
for (let round = 0; round < 4; round++) {
  for (const [name, make] of [
    ['async', newEngine],
    ['sync', syncEngine],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      const e = await make(64 << 20);
      times.push(performance.now() - t);
      const rt = e.newRuntime();
      rt.dispose();
    }
    times.sort((a, b) => a - b);
    console.log(name, 'p50', times[10]!.toFixed(2), 'p90', times[18]!.toFixed(2));
  }
}
