// web/exchange.js is responsible for running one Table API operation for a
// playground: the engine builds the request the Go SDK sends and answers it
// in one call (tableplay run); both are kept for the wire view. In a
// read-only playground a write is only built, never run.
const WRITES = new Set(["createTable", "deleteTable", "insert", "replace", "merge", "insertOrReplace", "insertOrMerge", "delete", "batch"]);

export const isWrite = (operation) => WRITES.has(operation.kind);

// send answers {operation, request, response, stats} (stats for queries),
// {operation, request, error}, or {operation, request, notSent: true}.
export function send(session, operation) {
  if (session.readonly && isWrite(operation)) {
    const request = session.engine.requestFor(operation);
    return request.error ? { operation, request, error: request.error } : { operation, request, notSent: true };
  }
  const ran = session.engine.run(operation);
  if (ran.error) return { operation, request: ran.request, error: ran.error };
  return { operation, request: ran.request, response: ran.response, stats: ran.stats };
}

export const header = (response, name) =>
  response.headers.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
