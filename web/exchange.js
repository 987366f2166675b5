// web/exchange.js is responsible for running one Table API operation in the
// page: the request comes from tableplay.requestFor (the Go SDK's shape,
// signed), the answer from tableplay.fetch; both are kept for the wire view.
export async function send(operation) {
  const request = tableplay.requestFor(operation);
  if (request.error) return { operation, request, error: request.error };
  const resp = await tableplay.fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body || undefined,
  });
  const response = {
    status: resp.status,
    statusText: resp.statusText,
    headers: [...resp.headers.entries()],
    body: await resp.text(),
  };
  return { operation, request, response };
}

export const header = (response, name) =>
  response.headers.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
