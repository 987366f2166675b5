// web/state.js is responsible for what the page's parts share: the selected
// table, the metadata level of reads, the ETags seen per entity (so a stale
// one can be offered), and an event bus between the parts.
export const state = {
  table: null,
  level: "minimalmetadata",
  etags: new Map(), // "table\u0000pk\u0000rk" → ETags in the order seen
};

export const bus = new EventTarget();

export function emit(type, detail = {}) {
  bus.dispatchEvent(new CustomEvent(type, { detail }));
}

export function on(type, fn) {
  bus.addEventListener(type, (e) => fn(e.detail));
}

export const entityKey = (table, pk, rk) => [table, pk, rk].join("\u0000");

// sawETag records an ETag an answer carried for an entity.
export function sawETag(table, pk, rk, etag) {
  if (!etag) return;
  const key = entityKey(table, pk, rk);
  const list = state.etags.get(key) ?? [];
  if (list.at(-1) !== etag) list.push(etag);
  state.etags.set(key, list);
}

export function etagsOf(table, pk, rk) {
  return state.etags.get(entityKey(table, pk, rk)) ?? [];
}

export function setStatus(text) {
  document.getElementById("status").textContent = text;
}
