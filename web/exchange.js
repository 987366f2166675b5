// web/exchange.js is responsible for running one Table API operation for a
// playground: the engine builds the request the Go SDK sends and answers it
// in one call (tableplay run); both are kept for the wire view. In a
// read-only playground an operation the engine says changes the account
// (request.changes) is only built, never run.

// send resolves with {operation, request, response, stats, bytes, code,
// message} (stats for queries; bytes on the wire; code and message the engine
// read from an error answer), {operation, request, error}, or {operation,
// request, notSent: true}. A session connected to another endpoint
// (web/remote.js) runs the operation over the network: the exchange then
// carries remote, the endpoint it went to. A write to the page's account
// runs inside the tab's store transaction, as every write the engine's
// table marks (web/api.js): the page's tabs share that account, so a stale
// If-Match gets 412 there too.
export async function send(session, operation) {
  const engine = session.engine;
  if (session.readonly) {
    const request = engine.requestFor(operation);
    if (request.error) return { operation, request, error: request.error };
    if (request.changes) return { operation, request, notSent: true };
  }
  const ran = await engine.run(operation);
  const remote = engine.remote ? { endpoint: engine.remote.endpoint } : undefined;
  if (ran.error) return { operation, request: ran.request, error: ran.error, remote };
  // A playground that compares profiles (web/profilecompare.js) notes which one answered.
  const profile = !remote && session.profileCompare ? session.profileCompare.current().name : undefined;
  return { operation, profile, request: ran.request, response: ran.response, stats: ran.stats, bytes: { request: ran.requestBytes ?? 0, response: ran.responseBytes ?? 0 }, code: ran.code ?? "", message: ran.message ?? "", remote };
}

export const header = (response, name) =>
  response.headers.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
