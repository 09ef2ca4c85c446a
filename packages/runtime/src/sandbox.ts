/**
 * One connector in one QuickJS runtime: a session's warm instance. The prelude, the connector's module and its
 * instance stay warm between calls, and calls that arrive while others run share it, interleaved where they await
 * (as in a browser): what one call leaves in `this` is there for the next. Each call keeps its own limits (time,
 * fetches); the memory, the interpreter's and the host's, is the session's. A limit tripped by one call ends the
 * instance: the session's other calls in flight end with SESSION_ENDED, and the next call builds a fresh interpreter
 * from the same script, so a hostile run never leaves a half-broken heap behind.
 *
 * Which call a fetch or a sleep belongs to: the interpreter runs only while the host drives it, at a call's start and
 * when one of a call's fetches or sleeps settles; each time, its job queue is run to the end, so all that runs then
 * is counted to the call whose event it was.
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
import { headerSafe } from './data-url.ts';
import { newEngine, recycleEngine } from './engine.ts';
import { isLimitError, RuntimeError } from './errors.ts';
import { ENDED, type Invocation, performFetch } from './fetch.ts';
import { handOver } from './file-pointers.ts';
import { HostMemory } from './host-memory.ts';
import { defaultLimits, type RuntimeLimits } from './limits.ts';
import { prelude } from './prelude.ts';
import { checkResult, tooDeep } from './result-shape.ts';
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
  /**
   * Called when the interpreter starts running (a call's event, loading) and when it stops: a host that watches for a
   * sandbox holding its thread (a connector looping to its deadline) measures one run, not its own silence, so a
   * thread merely busy with many short runs is never taken for held.
   */
  onRun?: ((running: boolean) => void) | undefined;
  /**
   * Called now and then while the interpreter runs (at QuickJS's interrupt checks, every few thousand operations):
   * a host that holds back what it has to say until its thread is free can say it while a run lasts. An error it
   * answers ends the run at once, as a tripped limit does: the call whose event runs fails with it (a host that must
   * have the thread back before the run's deadline).
   */
  whileRunning?: (() => RuntimeError | undefined) | undefined;
};

/** What one call may bring of its own; without them, the sandbox's `fetch`, `onFetch` and `onLogError` serve it. */
export type CallHooks = {
  fetch?: HostFetch | undefined;
  onFetch?: ((record: FetchRecord) => void) | undefined;
  /** The call's `runtime.logError` messages: those said while the interpreter runs for this call (as its fetches). */
  onLogError?: ((message: string) => void) | undefined;
};

export type ConnectorSandbox = {
  /**
   * `callOptions` are laid over the published options for this call. `deadline` (epoch ms) ends the call when the
   * caller's wall time runs out, where that began before the call (a pool's queue); by default the time limit from now.
   * `upload`'s first argument is an array of UploadFile: their bytes stay here, the connector gets FilePointers.
   * Calls may overlap: they share the instance, interleaved where they await.
   */
  call(
    method: ConnectorMethod,
    args: unknown[],
    callOptions?: Record<string, unknown>,
    deadline?: number,
    hooks?: CallHooks,
  ): Promise<InvocationResult>;
  dispose(): void;
};

type Vm = {
  engine: QuickJSWASMModule;
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  control: QuickJSHandle;
};

type Outcome = {
  value?: unknown;
  missing?: boolean;
  capability?: string;
  /** The prelude's walk found the result nested past the rule, before serializing it (which would overflow). */
  tooDeep?: boolean;
  error?: SandboxError | null;
};

/** One call in flight: its invocation, the prelude's promise for its outcome, and how to answer its caller. */
type Call = {
  invocation: Invocation;
  method: ConnectorMethod;
  options: string;
  handle: QuickJSHandle | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  resolve: (result: InvocationResult) => void;
  reject: (error: unknown) => void;
};

const LOG_MESSAGE_MAX = 4096;

export const loadConnector = async (params: LoadParams): Promise<ConnectorSandbox> => {
  const sandbox = new Sandbox(params, { ...defaultLimits, ...params.limits });
  await sandbox.ready();
  return sandbox;
};

class Sandbox implements ConnectorSandbox {
  readonly #params: LoadParams;
  readonly #limits: RuntimeLimits;
  readonly #memory: HostMemory;
  #vm: Vm | undefined;
  #loading: Promise<Vm> | undefined;
  /** The invocation whose event the interpreter runs now (undefined while it does not run). */
  #current: Invocation | undefined;
  /** The call whose options the prelude's `runtime.options` holds. */
  #optionsOf: Invocation | undefined;
  readonly #calls = new Set<Call>();
  #disposed = false;

  constructor(params: LoadParams, limits: RuntimeLimits) {
    this.#params = params;
    this.#limits = limits;
    this.#memory = new HostMemory(limits.memoryBytes);
  }

  async ready(): Promise<void> {
    await this.#ensureVm();
  }

  async call(
    method: ConnectorMethod,
    args: unknown[],
    callOptions: Record<string, unknown> = {},
    deadline?: number,
    hooks: CallHooks = {},
  ): Promise<InvocationResult> {
    if (!connectorMethods.includes(method)) {
      throw new RuntimeError('METHOD_MISSING', `'${method}' is not a connector method`);
    }
    const vm = await this.#ensureVm();
    // Another call of the session, resumed first from the same wait, tripped a limit: the interpreter this one was to
    // run in is gone with the session's state, as for the session's calls already running.
    if (vm !== this.#vm) throw sessionEnded();
    const invocation = this.#begin(deadline, hooks);
    const sent =
      method === 'upload'
        ? [handOver(invocation.files, args[0], invocation.memory, invocation), ...args.slice(1)]
        : args;
    return new Promise<InvocationResult>((resolve, reject) => {
      const call: Call = {
        invocation,
        method,
        options: JSON.stringify({ ...this.#params.options, ...callOptions }),
        handle: undefined,
        timer: undefined,
        resolve,
        reject,
      };
      this.#calls.add(call);
      invocation.wake = () => queueMicrotask(() => this.#review());
      call.timer = setTimeout(
        () => this.#fail(call, invocation.fatal ?? timeLimit(this.#limits.timeoutMs)),
        Math.max(0, invocation.deadline - Date.now()) + 1,
      );
      this.#drive(vm, invocation, (context) => {
        this.#optionsOf = invocation;
        const started = Scope.withScope((scope) =>
          context.callMethod(vm.control, 'call', [
            scope.manage(context.newString(method)),
            scope.manage(context.newString(JSON.stringify(sent))),
            scope.manage(context.newString(call.options)),
          ]),
        );
        if (started.error !== undefined) {
          const described = context.dump(started.error) as SandboxError;
          started.error.dispose();
          throw invocation.fatal ?? classifySandboxError(described, this.#limits);
        }
        call.handle = started.value;
      });
    });
  }

  dispose(): void {
    this.#disposed = true;
    this.#endSession(undefined, new RuntimeError('SESSION_ENDED', 'the session was ended'));
    this.#discardVm(true);
  }

  #begin(deadline = Date.now() + this.#limits.timeoutMs, hooks: CallHooks = {}): Invocation {
    return {
      deadline,
      fetches: 0,
      pending: 0,
      fatal: undefined,
      wake: () => undefined,
      controller: undefined,
      memory: this.#memory,
      files: new Map(),
      deferreds: new Set(),
      limits: this.#limits,
      hostFetch: hooks.fetch ?? this.#params.fetch,
      onFetch: hooks.onFetch ?? this.#params.onFetch,
      onLogError: hooks.onLogError ?? this.#params.onLogError,
      unanswered: new Set(),
    };
  }

  /**
   * Idempotent. Its fetches still running are aborted (and recorded so), promises the sandbox still awaits for it are
   * released (so the interpreter can be freed without a leak), and its bodies may make room for others.
   */
  #end(invocation: Invocation): void {
    for (const cutShort of invocation.unanswered) cutShort();
    invocation.unanswered.clear();
    for (const deferred of invocation.deferreds) deferred.dispose();
    invocation.deferreds.clear();
    invocation.controller?.abort(ENDED);
    invocation.memory.release(invocation);
    invocation.files.clear();
    if (this.#current === invocation) this.#current = undefined;
  }

  /**
   * Runs the interpreter for one event of `invocation` (its start, a fetch or sleep settling): `work`, then every
   * job it made runnable, to the end. A limit tripped meanwhile is that invocation's, and ends the session.
   */
  #drive(vm: Vm, invocation: Invocation, work: (context: QuickJSContext) => void): void {
    const { context, runtime } = vm;
    this.#current = invocation;
    this.#params.onRun?.(true);
    try {
      if (this.#optionsOf !== invocation) {
        const call = [...this.#calls].find((candidate) => candidate.invocation === invocation);
        if (call !== undefined) {
          this.#optionsOf = invocation;
          context.newString(call.options).consume((options) => {
            context.callMethod(vm.control, 'options', [options]).dispose();
          });
        }
      }
      work(context);
      const jobs = runtime.executePendingJobs();
      if (jobs.error !== undefined) {
        const described = context.dump(jobs.error) as SandboxError;
        jobs.error.dispose();
        throw invocation.fatal ?? classifySandboxError(described, this.#limits);
      }
    } catch (error) {
      this.#current = undefined;
      this.#params.onRun?.(false);
      const call = [...this.#calls].find((candidate) => candidate.invocation === invocation);
      if (call !== undefined) this.#fail(call, error);
      else this.#endSession(undefined, sessionEnded());
      return;
    }
    this.#current = undefined;
    this.#params.onRun?.(false);
    this.#review();
  }

  /** After the interpreter ran: answers every call whose outcome is settled, and those that can never settle. */
  #review(): void {
    const vm = this.#vm;
    if (vm === undefined) return;
    const { context } = vm;
    for (const call of [...this.#calls]) {
      if (!this.#calls.has(call)) continue;
      if (call.invocation.fatal !== undefined) {
        this.#fail(call, call.invocation.fatal);
        continue;
      }
      if (call.handle === undefined) continue;
      const state = context.getPromiseState(call.handle);
      if (state.type === 'fulfilled') {
        const json = context.getString(state.value);
        if (!state.notAPromise) state.value.dispose();
        this.#answer(call, json);
      } else if (state.type === 'rejected') {
        const described = context.dump(state.error) as SandboxError;
        state.error.dispose();
        this.#fail(call, classifySandboxError(described, this.#limits));
      }
    }
    // Calls still waiting while nothing on the host can wake the interpreter wait for ever.
    const waiting = [...this.#calls];
    if (waiting.length > 0 && waiting.every((call) => call.invocation.pending === 0)) {
      for (const call of waiting) {
        this.#fail(
          call,
          new RuntimeError('CONNECTOR_ERROR', 'the connector awaits a promise that nothing will ever settle'),
        );
      }
    }
  }

  #answer(call: Call, json: string): void {
    let result: InvocationResult;
    try {
      const outcome = checkResult(json) as Outcome;
      if (outcome.missing) {
        throw new RuntimeError(
          'METHOD_MISSING',
          outcome.capability === undefined
            ? `the connector has no method '${call.method}'`
            : `the connector has no method '${call.method}': its getCapabilities() does not say ${outcome.capability}: true`,
        );
      }
      if (outcome.error !== undefined) throw classifySandboxError(outcome.error, this.#limits);
      if (outcome.tooDeep) throw tooDeep();
      if (call.method === 'download') {
        result = pointedBytes(outcome.value, this.#memory);
      } else {
        result = { kind: 'json', value: outcome.value };
      }
    } catch (error) {
      this.#fail(call, error);
      return;
    }
    this.#close(call);
    call.resolve(result);
  }

  /** Ends one call with `error`; a limit (or anything unforeseen) ends its session too. */
  #fail(call: Call, error: unknown): void {
    if (!this.#calls.has(call)) return;
    this.#close(call);
    call.reject(error);
    if (isLimitError(error) || !(error instanceof RuntimeError)) {
      this.#endSession(call, sessionEnded());
      this.#discardVm(false);
    }
  }

  #close(call: Call): void {
    this.#calls.delete(call);
    clearTimeout(call.timer);
    if (call.handle?.alive) call.handle.dispose();
    this.#memory.release(call.invocation);
    this.#end(call.invocation);
    if (this.#optionsOf === call.invocation) this.#optionsOf = undefined;
  }

  /** Every call in flight but `except` ends with `error`; the host's bodies of the session go. */
  #endSession(except: Call | undefined, error: RuntimeError): void {
    for (const call of [...this.#calls]) {
      if (call === except) continue;
      this.#close(call);
      call.reject(error);
    }
    this.#memory.clear();
  }

  /** `reusable`: the interpreter's heap is whole (no limit tripped), so its instance may serve another sandbox. */
  #discardVm(reusable: boolean): void {
    const vm = this.#vm;
    this.#vm = undefined;
    this.#optionsOf = undefined;
    if (vm === undefined) return;
    if (releaseVm(vm.runtime, vm.context, vm.control) && reusable) {
      recycleEngine(vm.engine, this.#limits.memoryBytes);
    }
  }

  #ensureVm(): Promise<Vm> {
    if (this.#disposed)
      return Promise.reject(new RuntimeError('CONNECTOR_ERROR', 'the sandbox was disposed'));
    if (this.#vm !== undefined) return Promise.resolve(this.#vm);
    this.#loading ??= this.#load().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  async #load(): Promise<Vm> {
    const engine = await newEngine(this.#limits.memoryBytes);
    const runtime = engine.newRuntime({
      memoryLimitBytes: this.#limits.memoryBytes,
      maxStackSizeBytes: this.#limits.stackBytes,
      interruptHandler: () => {
        const cut = this.#params.whileRunning?.();
        if (cut !== undefined && this.#current !== undefined) {
          this.#current.fatal ??= cut;
          return true;
        }
        return this.#current !== undefined && Date.now() > this.#current.deadline;
      },
    });
    runtime.setModuleLoader((name) => ({
      error: new Error(`import '${name}': a connector is one bundled module without imports`),
    }));
    const context = runtime.newContext();
    let control: QuickJSHandle | undefined;
    // Loading is one run of the interpreter: the module's top level and the constructor, under their own deadline.
    const invocation = this.#begin();
    this.#current = invocation;
    this.#params.onRun?.(true);
    try {
      control = this.#evalPrelude(context);
      const loaded = this.#evalModule(context, control);
      const jobs = runtime.executePendingJobs();
      if (jobs.error !== undefined) {
        const described = context.dump(jobs.error) as SandboxError;
        jobs.error.dispose();
        throw invocation.fatal ?? classifySandboxError(described, this.#limits);
      }
      if (loaded.missing) {
        throw new RuntimeError('NO_DEFAULT_CLASS', 'the script has no default export that is a class');
      }
      if (loaded.error !== undefined) {
        const cause = classifySandboxError(loaded.error, this.#limits);
        if (isLimitError(cause)) throw cause;
        throw new RuntimeError('SCRIPT_INVALID', `the connector's constructor failed: ${cause.message}`);
      }
      const vm: Vm = { engine, runtime, context, control };
      this.#vm = vm;
      return vm;
    } catch (error) {
      this.#current = undefined;
      this.#end(invocation);
      releaseVm(runtime, context, control);
      throw error;
    } finally {
      this.#current = undefined;
      this.#params.onRun?.(false);
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
        // Said while the interpreter runs for one call (or loads the module): that call's message.
        logError: context.newFunction('logError', (message) => {
          const onLogError = this.#current === undefined ? this.#params.onLogError : this.#current.onLogError;
          onLogError?.(context.getString(message).slice(0, LOG_MESSAGE_MAX));
        }),
      };
      for (const [name, fn] of Object.entries(functions)) context.setProp(host, name, scope.manage(fn));
      const platform = scope.manage(context.newString(this.#params.platform));
      const version = scope.manage(context.newString(sdkVersion));
      return context.unwrapResult(context.callFunction(factory, context.undefined, host, platform, version));
    });
  }

  /** Evaluates the module, then has the prelude build `new Default(runtime)`; both steps inside one job. */
  #evalModule(context: QuickJSContext, control: QuickJSHandle): Outcome {
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
    const built = state.value.consume((namespace) =>
      Scope.withScope((scope) =>
        context.callMethod(control, 'load', [
          namespace,
          scope.manage(context.newString(JSON.stringify(this.#params.options))),
        ]),
      ),
    );
    if (built.error !== undefined) {
      const described = context.dump(built.error) as SandboxError;
      built.error.dispose();
      throw classifySandboxError(described, this.#limits);
    }
    return built.value.consume((json) => JSON.parse(context.getString(json)) as Outcome);
  }

  /**
   * Settles a sandbox promise only for the call that made it and only while it runs (its interpreter lives then), and
   * runs what that wakes as that call's.
   */
  #settle(invocation: Invocation, deferred: QuickJSDeferredPromise, settle: () => void): void {
    invocation.pending -= 1;
    const vm = this.#vm;
    if (!invocation.deferreds.delete(deferred) || vm === undefined) return;
    this.#drive(vm, invocation, () => {
      settle();
      deferred.dispose();
    });
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

const sessionEnded = (): RuntimeError =>
  new RuntimeError(
    'SESSION_ENDED',
    "another call of the same session tripped a limit, which ended the session's connector instance",
  );

/**
 * `download` returns an ArrayBufferPointer: one a fetch of this call produced, or of an earlier call of the same
 * session while the session lives (a `query` that fetched, a `download` that returns it); its bytes stayed on the host.
 */
const pointedBytes = (value: unknown, memory: HostMemory): InvocationResult => {
  const id = typeof value === 'object' && value !== null && 'id' in value ? String(value.id) : undefined;
  const kept = id === undefined ? undefined : memory.get(id);
  if (kept === undefined) {
    throw new RuntimeError(
      'CONNECTOR_ERROR',
      'download must return the arrayBuffer ({id, bytes}) of a response fetched by the same call, or by the same session while it lives; this id is none',
    );
  }
  return {
    kind: 'binary',
    contentType: headerSafe(kept.contentType),
    bytes: kept.body,
    kept: kept.kept?.ref,
  };
};
