// web/api.js is responsible for window.tableplay's functions: it builds
// them from the engine's own table of them (wasm/pageapi, Funcs), one row
// per function with its name, named parameters, scope, whether it writes
// and the shape of its answer, so a new function needs no line here. It
// holds no data-model logic: every rule, byte of JSON and error comes from
// the engine. web/engine.js, the loader, starts the engine and hands its
// binding over.

// The enums of a row, as wasm/pageapi numbers them.
const TEXT = 0, JSON_VALUE = 1, DOC = 2, NUMBER = 3; // Kind
const ENGINE = 0, ACCOUNT = 1, ENDPOINT = 2, INSTANCE = 3; // Scope
const ALWAYS = 1, BY_OPERATION = 2; // Writes (Reads, Replaces: never kept)
const NOTHING = 1, CONNECTION = 2, NEW_ACCOUNT = 3, DROPPED = 4; // Answer

// The page's own account; embeds each get another (createAccount).
export const DEFAULT_ACCOUNT = "devstoreaccount1";

// Statuses whose answers have no body (a Response refuses one).
const bodiless = new Set([101, 204, 205, 304]);

// argument is a parameter's value as the engine takes it.
function argument(param, value) {
  switch (param.kind) {
    case JSON_VALUE:
      return JSON.stringify(value ?? null);
    case DOC:
      return typeof value === "string" ? value : JSON.stringify(value);
    case NUMBER:
      return Number(value);
    default:
      return param.optional && value === undefined ? "" : String(value);
  }
}

// createAPI returns {tableplay, install, changed} for the binding:
// tableplay holds the loader's own members at once and the rows' functions
// once install has read the rows (the loader calls it when the engine is
// up, before ready resolves); changed is the engine's notice that an
// account changed.
export function createAPI(binding, ready) {
  // keeper, when the page sets one (tableplay.keepWrites), runs every write
  // to the page's account: keeper(fn) calls fn, the engine's synchronous
  // answer, when this tab holds every other tab's earlier writes, and
  // resolves with it once the change is stored (web/accountstore.js).
  // Accounts made by createAccount (the embeds') live in this tab alone.
  let keeper = null;
  // kept counts the keeper's calls under way: a write made inside one is
  // part of it.
  let kept = 0;
  const ownAccounts = new Set();
  const keeps = (account) => keeper !== null && kept === 0 && !ownAccounts.has(account);
  const keep = (fn) =>
    keeper(() => {
      kept++;
      try {
        return fn();
      } finally {
        kept--;
      }
    });
  let rows = [];

  const call = (key, args) => {
    const fn = binding[key];
    if (typeof fn !== "function") throw new Error(`tableplay.${key}: the engine is not ready; await tableplay.ready`);
    return fn(...args);
  };

  // fn makes a row's JS function; first is the account's name or the
  // connection's id its scope passes first.
  function fn(row, first) {
    const read = (text) => {
      switch (row.answer) {
        case NOTHING:
        case DROPPED:
          if (text) throw new Error(text);
          return undefined;
        default: {
          const value = JSON.parse(text);
          return row.field ? value[row.field] : value;
        }
      }
    };
    return (...values) => {
      const args = row.params.map((p, i) => argument(p, values[i]));
      if (first !== undefined) args.unshift(first);
      if (row.answer === CONNECTION) return connection(read(call(row.key, args)));
      if (row.answer === NEW_ACCOUNT) return ready.then(() => created(read(call(row.key, args))));
      if (row.answer === DROPPED) {
        read(call(row.key, args));
        ownAccounts.delete(values[0]);
        return undefined;
      }
      // A write to the kept account runs inside the tab's store transaction.
      const writes = row.writes === ALWAYS || (row.writes === BY_OPERATION && binding.writes(row.key, ...args));
      if (row.scope === ACCOUNT && keeps(first) && writes) return keep(() => read(call(row.key, args)));
      return read(call(row.key, args));
    };
  }

  // bound is the functions of one scope with first passed before their
  // parameters.
  const bound = (scope, first) => Object.fromEntries(rows.filter((r) => r.scope === scope).map((r) => [r.name, fn(r, first)]));

  function connection(info) {
    if (info.error) throw new Error(info.error);
    return { ...info, ...bound(ENDPOINT, info.id) };
  }

  function created(info) {
    if (info.error) throw new Error(info.error);
    ownAccounts.add(info.name);
    return account(info.name);
  }

  // fetch answers a Table API request in the page: the engine takes the
  // method, the URL, the header pairs and the body bytes, and gives back
  // the status, the header pairs and the body bytes. A write to the kept
  // account (any account name the engine does not hold falls back to the
  // page's, as in its router) runs through the keeper.
  async function engineFetch(input, init) {
    await ready;
    const request = new Request(input, init);
    const reads = request.method === "GET" || request.method === "HEAD";
    const bytes = reads ? new Uint8Array(0) : new Uint8Array(await request.arrayBuffer());
    try {
      const handle = () => binding.handleRequest(request.method, request.url, [...request.headers], bytes);
      const answer = reads || !keeps(new URL(request.url).pathname.split("/")[1] ?? "") ? handle() : await keep(handle);
      return new Response(bodiless.has(answer.status) ? null : answer.body, {
        status: answer.status,
        statusText: answer.statusText,
        headers: answer.headers,
      });
    } catch (error) {
      // Only a failure of the bridge itself lands here; the engine answers
      // its own errors (panics included) as 500 responses.
      return new Response(String(error), { status: 500, statusText: "Internal Server Error" });
    }
  }

  const stateless = {};
  // account returns the functions bound to one account of the engine
  // (fetch is shared: the account name in the path picks the account).
  function account(name) {
    return { ...stateless, name, fetch: engineFetch, ...bound(ACCOUNT, name) };
  }

  const tableplay = {
    ready,
    account,
    stateless,
    fetch: engineFetch,
    // keepWrites(fn) makes fn the keeper of the page's account (see
    // keeper); write(fn) runs fn, a synchronous call that may change the
    // page's account, through it and resolves with fn's answer.
    keepWrites(fn) {
      keeper = fn;
    },
    // Inside the keeper's call fn is part of it.
    write: (fn) => (keeper && kept === 0 ? keep(fn) : kept ? new Promise((resolve) => resolve(fn())) : Promise.resolve().then(fn)),
    onchange: null,
  };
  function install() {
    rows = JSON.parse(binding.api());
    Object.assign(stateless, bound(ENGINE));
    Object.assign(tableplay, account(DEFAULT_ACCOUNT), bound(INSTANCE));
  }
  function changed(name) {
    // Asynchronously: listeners may call back into the engine.
    queueMicrotask(() => {
      window.dispatchEvent(new CustomEvent("tableplay:change", { detail: { account: name } }));
      if (name === DEFAULT_ACCOUNT && typeof tableplay.onchange === "function") tableplay.onchange();
    });
  }
  return { tableplay, install, changed };
}
