// The entry Worker's JavaScript: one Go instance (app.wasm, built from
// workers/entry on syumai/workers) per isolate, handed every request.
// syumai/workers' own worker.mjs starts a fresh Go instance per request,
// about 30 ms of CPU each (Go's runtime and the engine's packages start
// every time); one instance kept for the isolate's life answers a room's
// point read in the time of the object's own work. The Go side serves with
// workers.ServeNonBlock and workers.Ready and never exits.
import "./wasm_exec.js";
import mod from "./app.wasm";

// started resolves with the running instance's context (the object Go
// reads as its global "context": env, ctx and the binding it fills).
let started = null;
// The Go instance started last: its exited says it has ended.
let running = null;

function start(env, ctx) {
  const context = { env, ctx, binding: {} };
  const go = new Go();
  let ready;
  const readyPromise = new Promise((resolve) => (ready = resolve));
  const instance = new WebAssembly.Instance(mod, { ...go.importObject, workers: { ready: () => ready() } });
  // If the program ever ends (a panic), the next request starts another
  // (fetch checks go.exited: the run's promise may settle in the context
  // of a request that has ended, where workerd runs no continuation).
  running = go;
  go.run(instance, context).finally(() => {
    if (running === go) started = running = null;
  });
  return readyPromise.then(() => context);
}

// globalThis.tryCatch is what syumai/workers' Go side calls to run a
// JavaScript function that may throw.
globalThis.tryCatch = (fn) => {
  try {
    return { result: fn() };
  } catch (e) {
    return { error: e };
  }
};

export default {
  async fetch(request, env, ctx) {
    if (running?.exited) started = running = null;
    started ||= start(env, ctx);
    const context = await started;
    // The bindings are the deployment's, the same for every request.
    context.env = env;
    context.ctx = ctx;
    return context.binding.handleRequest(request);
  },
};
