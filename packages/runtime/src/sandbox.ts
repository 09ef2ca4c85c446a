/**
 * One connector in one QuickJS runtime: the prelude, the connector's module and its instance stay warm between calls
 * (calls run one at a time). A call that hits a limit discards the interpreter; the next call builds a fresh one from
 * the same script, so a hostile run never leaves a half-broken heap behind.
 */
import {
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
  Scope,
} from 'quickjs-emscripten-core';
import { classifySandboxError, type SandboxError, timeLimit } from './classify.ts';
import { newEngine, recycleEngine } from './engine.ts';
import { isLimitError, RuntimeError } from './errors.ts';
import { ENDED, type Invocation, performFetch } from './fetch.ts';
import { handOver } from './file-pointers.ts';
import { defaultLimits, type RuntimeLimits } from './limits.ts';
import { prelude } from './prelude.ts';
import {
  type ConnectorMethod,
  connectorMethods,
  type FetchRecord,
  type HostFetch,
  type InvocationResult,
  type Platform,
} from './types.ts';

/**
 * The SDK (`@chili-publish/studio-connectors`) version whose connector interface this runtime implements: the
 * interface of its source (chili-publish/studio-sdk `packages/connectors`), upload and getPageItemById included.
 */
export const sdkVersion = '1.47.0-alpha.0';

export type LoadParams = {
  /** The ES module source; its default export is the connector class. */
  script: string;
  /** The connector's published options. */
  options: Record<string, unknown>;
  platform: Platform;
  fetch: HostFetch;
  limits?: Partial<RuntimeLimits>;
  onFetch?: (record: FetchRecord) => void;
  onLogError?: (message: string) => void;
};

export type ConnectorSandbox = {
  /**
   * `callOptions` are laid over the published options for this call. `deadline` (epoch ms) ends the call when the
   * caller's wall time runs out, where that began before the call (a pool's queue); by default the time limit from now.
   * `upload`'s first argument is an array of UploadFile: their bytes stay here, the connector gets FilePointers.
   */
  call(
    method: ConnectorMethod,
    args: unknown[],
    callOptions?: Record<string, unknown>,
    deadline?: number,
  ): Promise<InvocationResult>;
  dispose(): void;
};

type Vm = {
  engine: QuickJSWASMModule;
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  control: QuickJSHandle;
};

type Outcome = { value?: unknown; missing?: boolean; capability?: string; error?: SandboxError | null };

const LOG_MESSAGE_MAX = 4096;

export const loadConnector = async (params: LoadParams): Promise<ConnectorSandbox> => {
  const sandbox = new Sandbox(params, { ...defaultLimits, ...params.limits });
  await sandbox.ready();
  return sandbox;
};

class Sandbox implements ConnectorSandbox {
  readonly #params: LoadParams;
  readonly #limits: RuntimeLimits;
  #vm: Vm | undefined;
  #current: Invocation | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #disposed = false;

  constructor(params: LoadParams, limits: RuntimeLimits) {
    this.#params = params;
    this.#limits = limits;
  }

  async ready(): Promise<void> {
    await this.#serial(() => this.#ensureVm());
  }

  call(
    method: ConnectorMethod,
    args: unknown[],
    callOptions: Record<string, unknown> = {},
    deadline?: number,
  ): Promise<InvocationResult> {
    return this.#serial(async () => {
      if (!connectorMethods.includes(method)) {
        throw new RuntimeError('METHOD_MISSING', `'${method}' is not a connector method`);
      }
      const vm = await this.#ensureVm();
      const options = JSON.stringify({ ...this.#params.options, ...callOptions });
      const invocation = this.#begin(deadline);
      try {
        const sent = method === 'upload' ? [handOver(invocation.files, args[0]), ...args.slice(1)] : args;
        const outcome = await this.#run(vm, invocation, (context) =>
          Scope.withScope((scope) =>
            context.callMethod(vm.control, 'call', [
              scope.manage(context.newString(method)),
              scope.manage(context.newString(JSON.stringify(sent))),
              scope.manage(context.newString(options)),
            ]),
          ),
        );
        if (outcome.missing) {
          throw new RuntimeError(
            'METHOD_MISSING',
            outcome.capability === undefined
              ? `the connector has no method '${method}'`
              : `the connector has no method '${method}': its getCapabilities() does not say ${outcome.capability}: true`,
          );
        }
        if (outcome.error !== undefined) throw classifySandboxError(outcome.error, this.#limits);
        return method === 'download'
          ? pointedBytes(outcome.value, invocation)
          : { kind: 'json', value: outcome.value };
      } catch (error) {
        this.#end(invocation);
        if (isLimitError(error) || !(error instanceof RuntimeError)) this.#discardVm(false);
        throw error;
      } finally {
        this.#end(invocation);
      }
    });
  }

  dispose(): void {
    this.#disposed = true;
    this.#discardVm(true);
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #begin(deadline = Date.now() + this.#limits.timeoutMs): Invocation {
    const invocation: Invocation = {
      deadline,
      fetches: 0,
      pending: 0,
      fatal: undefined,
      wake: () => undefined,
      controller: undefined,
      pointers: new Map(),
      files: new Map(),
      deferreds: new Set(),
      limits: this.#limits,
      hostFetch: this.#params.fetch,
      onFetch: this.#params.onFetch,
      unanswered: new Set(),
    };
    this.#current = invocation;
    return invocation;
  }

  /** Idempotent. Promises the sandbox still awaits are released, so the interpreter can be freed without a leak. */
  #end(invocation: Invocation): void {
    for (const cutShort of invocation.unanswered) cutShort();
    invocation.unanswered.clear();
    for (const deferred of invocation.deferreds) deferred.dispose();
    invocation.deferreds.clear();
    invocation.controller?.abort(ENDED);
    invocation.pointers.clear();
    invocation.files.clear();
    if (this.#current === invocation) this.#current = undefined;
  }

  /** `reusable`: the interpreter's heap is whole (no limit tripped), so its instance may serve another sandbox. */
  #discardVm(reusable: boolean): void {
    const vm = this.#vm;
    this.#vm = undefined;
    if (vm === undefined) return;
    if (releaseVm(vm.runtime, vm.context, vm.control) && reusable) {
      recycleEngine(vm.engine, this.#limits.memoryBytes);
    }
  }

  async #ensureVm(): Promise<Vm> {
    if (this.#disposed) throw new RuntimeError('CONNECTOR_ERROR', 'the sandbox was disposed');
    if (this.#vm !== undefined) return this.#vm;
    const engine = await newEngine(this.#limits.memoryBytes);
    const runtime = engine.newRuntime({
      memoryLimitBytes: this.#limits.memoryBytes,
      maxStackSizeBytes: this.#limits.stackBytes,
      interruptHandler: () => this.#current !== undefined && Date.now() > this.#current.deadline,
    });
    runtime.setModuleLoader((name) => ({
      error: new Error(`import '${name}': a connector is one bundled module without imports`),
    }));
    const context = runtime.newContext();
    let control: QuickJSHandle | undefined;
    const invocation = this.#begin();
    try {
      control = this.#evalPrelude(context);
      const vm: Vm = { engine, runtime, context, control };
      const loaded = await this.#run(vm, invocation, () => this.#evalModule(context, vm.control));
      if (loaded.missing) {
        throw new RuntimeError('NO_DEFAULT_CLASS', 'the script has no default export that is a class');
      }
      if (loaded.error !== undefined) {
        const cause = classifySandboxError(loaded.error, this.#limits);
        if (isLimitError(cause)) throw cause;
        throw new RuntimeError('SCRIPT_INVALID', `the connector's constructor failed: ${cause.message}`);
      }
      this.#vm = vm;
      return vm;
    } catch (error) {
      this.#end(invocation);
      releaseVm(runtime, context, control);
      throw error;
    } finally {
      this.#end(invocation);
    }
  }

  #evalPrelude(context: QuickJSContext): QuickJSHandle {
    return Scope.withScope((scope) => {
      const factory = scope.manage(
        context.unwrapResult(context.evalCode(prelude, 'prelude.js', { type: 'global' })),
      );
      const host = scope.manage(context.newObject());
      const functions = {
        fetch: context.newFunction('fetch', (url, init) => this.#hostFetch(context, url, init)),
        sleep: context.newFunction('sleep', (ms) => this.#hostSleep(context, ms)),
        logError: context.newFunction('logError', (message) => {
          this.#params.onLogError?.(context.getString(message).slice(0, LOG_MESSAGE_MAX));
        }),
      };
      for (const [name, fn] of Object.entries(functions)) context.setProp(host, name, scope.manage(fn));
      const platform = scope.manage(context.newString(this.#params.platform));
      const version = scope.manage(context.newString(sdkVersion));
      return context.unwrapResult(context.callFunction(factory, context.undefined, host, platform, version));
    });
  }

  /** Evaluates the module, then has the prelude build `new Default(runtime)`; both steps inside one job. */
  #evalModule(context: QuickJSContext, control: QuickJSHandle) {
    const evaluated = context.evalCode(this.#params.script, 'connector.js', { type: 'module' });
    if (evaluated.error !== undefined) {
      const described = context.dump(evaluated.error) as SandboxError;
      evaluated.error.dispose();
      const cause = classifySandboxError(described, this.#limits);
      if (cause.code !== 'CONNECTOR_ERROR') throw cause;
      throw new RuntimeError('SCRIPT_INVALID', `the script does not load as an ES module: ${cause.message}`);
    }
    // A module without top-level await gives its namespace; one with it gives a promise for the namespace.
    const state = context.getPromiseState(evaluated.value);
    if (state.type !== 'fulfilled' || !state.notAPromise) evaluated.value.dispose();
    if (state.type === 'pending') {
      throw new RuntimeError('SCRIPT_INVALID', 'the script does not load: its top-level await never settles');
    }
    if (state.type === 'rejected') {
      const described = context.dump(state.error) as SandboxError;
      state.error.dispose();
      throw new RuntimeError('SCRIPT_INVALID', `the script does not load: ${String(described.message)}`);
    }
    return state.value.consume((namespace) =>
      Scope.withScope((scope) =>
        context.callMethod(control, 'load', [
          namespace,
          scope.manage(context.newString(JSON.stringify(this.#params.options))),
        ]),
      ),
    );
  }

  /**
   * Runs one job (a call into the sandbox that returns a JSON string or a promise of one) until it settles: pending
   * jobs run, then the loop sleeps until a fetch or sleep settles, the deadline passes or a limit trips.
   */
  async #run(
    vm: Vm,
    invocation: Invocation,
    start: (context: QuickJSContext) => { value?: QuickJSHandle; error?: QuickJSHandle },
  ): Promise<Outcome> {
    const { context } = vm;
    const started = start(context);
    if (started.error !== undefined || started.value === undefined) {
      const described = started.error === undefined ? {} : (context.dump(started.error) as SandboxError);
      started.error?.dispose();
      throw invocation.fatal ?? classifySandboxError(described, this.#limits);
    }
    try {
      return await this.#settleJob(vm, invocation, started.value);
    } finally {
      if (started.value.alive) started.value.dispose();
    }
  }

  async #settleJob(vm: Vm, invocation: Invocation, result: QuickJSHandle): Promise<Outcome> {
    const { context, runtime } = vm;
    for (;;) {
      const jobs = runtime.executePendingJobs();
      if (jobs.error !== undefined) {
        const described = context.dump(jobs.error) as SandboxError;
        jobs.error.dispose();
        throw invocation.fatal ?? classifySandboxError(described, this.#limits);
      }
      if (invocation.fatal !== undefined) throw invocation.fatal;
      const state = context.getPromiseState(result);
      if (state.type === 'fulfilled') {
        const outcome = JSON.parse(context.getString(state.value)) as Outcome;
        if (!state.notAPromise) state.value.dispose();
        return outcome;
      }
      if (state.type === 'rejected') {
        const described = context.dump(state.error) as SandboxError;
        state.error.dispose();
        throw classifySandboxError(described, this.#limits);
      }
      if (Date.now() > invocation.deadline) throw timeLimit(this.#limits.timeoutMs);
      if (invocation.pending === 0) {
        throw new RuntimeError(
          'CONNECTOR_ERROR',
          'the connector awaits a promise that nothing will ever settle',
        );
      }
      await this.#nextWake(invocation);
      if (Date.now() > invocation.deadline) throw invocation.fatal ?? timeLimit(this.#limits.timeoutMs);
    }
  }

  #nextWake(invocation: Invocation): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, invocation.deadline - Date.now()) + 1);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      invocation.wake = done;
    });
  }

  /** Settles a sandbox promise only for the invocation that made it and only while its interpreter lives. */
  #settle(invocation: Invocation, deferred: QuickJSDeferredPromise, settle: () => void): void {
    invocation.pending -= 1;
    if (invocation.deferreds.delete(deferred)) {
      settle();
      deferred.dispose();
    }
    invocation.wake();
  }

  #track(invocation: Invocation, deferred: QuickJSDeferredPromise): void {
    invocation.pending += 1;
    invocation.deferreds.add(deferred);
  }

  #hostFetch(context: QuickJSContext, urlHandle: QuickJSHandle, initHandle: QuickJSHandle): QuickJSHandle {
    const invocation = this.#current;
    const deferred = context.newPromise();
    if (invocation === undefined) {
      context
        .newError('fetch is only available while a connector method runs')
        .consume((error) => deferred.reject(error));
      return deferred.handle;
    }
    const url = context.getString(urlHandle);
    const init = JSON.parse(context.getString(initHandle)) as Parameters<typeof performFetch>[2];
    this.#track(invocation, deferred);
    performFetch(invocation, url, init).then(
      (response) =>
        this.#settle(invocation, deferred, () =>
          context.newString(response).consume((value) => deferred.resolve(value)),
        ),
      (error: unknown) =>
        this.#settle(invocation, deferred, () =>
          context
            .newError({ name: 'TypeError', message: messageOf(error) })
            .consume((value) => deferred.reject(value)),
        ),
    );
    return deferred.handle;
  }

  #hostSleep(context: QuickJSContext, msHandle: QuickJSHandle): QuickJSHandle {
    const invocation = this.#current;
    const deferred = context.newPromise();
    if (invocation === undefined) {
      deferred.resolve();
      return deferred.handle;
    }
    const ms = Math.max(0, context.getNumber(msHandle) || 0);
    this.#track(invocation, deferred);
    // A sleep past the deadline never ends: the deadline does (TIME_LIMIT). Ended at the deadline instead, a timer
    // that fires a little early by the wall clock (Node's timers run on the loop's cached time) let the call finish.
    if (Date.now() + ms > invocation.deadline) return deferred.handle;
    setTimeout(() => this.#settle(invocation, deferred, () => deferred.resolve()), ms);
    return deferred.handle;
  }
}

/**
 * Frees an interpreter; false when QuickJS failed doing so. Its WebAssembly instance is its own, so if QuickJS aborts
 * while freeing a heap a limit left half-built, only that instance is lost, and it is dropped anyway.
 */
const releaseVm = (
  runtime: QuickJSRuntime,
  context: QuickJSContext,
  control: QuickJSHandle | undefined,
): boolean => {
  try {
    control?.dispose();
    context.dispose();
    runtime.dispose();
    return true;
  } catch {
    // The instance is unreachable from here on; the garbage collector takes its memory.
    return false;
  }
};

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** `download` returns an ArrayBufferPointer; its bytes were kept on the host when the fetch answered. */
const pointedBytes = (value: unknown, invocation: Invocation): InvocationResult => {
  const id = typeof value === 'object' && value !== null && 'id' in value ? String(value.id) : undefined;
  const kept = id === undefined ? undefined : invocation.pointers.get(id);
  if (kept === undefined) {
    throw new RuntimeError(
      'CONNECTOR_ERROR',
      'download must return the arrayBuffer of a response fetched in the same call ({id, bytes})',
    );
  }
  return { kind: 'binary', contentType: kept.contentType, bytes: kept.body };
};
