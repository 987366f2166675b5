// A minimal entry Worker for the room's own tests (workers/room/*_test.go)
// and for trying a room before the real entry (workers/entry/) is built
// in: POST /rooms creates a room with a random name and key (a test key,
// not derived from a deployment secret) and answers as CONTRACT.md's
// POST /rooms does, without links; /<account>/… goes to the account's
// object; GET /rooms/<account> is the object's /_room/info. It adds
// nothing else: no CORS, no static files.
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === "/rooms") return create(request, env, url);
    const info = url.pathname.match(/^\/rooms\/([a-z0-9]{3,24})$/);
    if (request.method === "GET" && info) {
      const stub = env.ROOMS.get(env.ROOMS.idFromName(info[1]));
      return stub.fetch("http://room/_room/info", { headers: { "x-tableplay-room-control": "1" } });
    }
    const account = url.pathname.split("/")[1].replace(/-secondary$/, "");
    if (!/^[a-z0-9]{3,24}$/.test(account)) return new Response("no such room\n", { status: 404 });
    const headers = new Headers();
    for (const [k, v] of request.headers) if (!k.startsWith("x-tableplay-room-") || k === "x-tableplay-room-now") headers.append(k, v);
    headers.set("x-tableplay-room-remote", request.headers.get("cf-connecting-ip") || "127.0.0.1");
    const stub = env.ROOMS.get(env.ROOMS.idFromName(account));
    return stub.fetch(new Request(request, { headers }));
  },
};

async function create(request, env, url) {
  const opts = (await request.json().catch(() => null)) || {};
  const name = "r" + hex(crypto.getRandomValues(new Uint8Array(8)));
  const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  const stub = env.ROOMS.get(env.ROOMS.idFromName(name));
  const res = await stub.fetch("http://room/_room/create", {
    method: "POST",
    headers: { "x-tableplay-room-control": "1", "content-type": "application/json" },
    body: JSON.stringify({ account: name, key, idleSeconds: opts.idleSeconds ?? 3600, limits: opts.limits ?? {} }),
  });
  if (res.status !== 201) return res;
  const info = await res.json();
  const endpoint = `${url.origin}/${name}`;
  return Response.json(
    {
      account: name,
      key,
      endpoint,
      connectionString: `DefaultEndpointsProtocol=${url.protocol.slice(0, -1)};AccountName=${name};AccountKey=${key};TableEndpoint=${endpoint};`,
      expires: info.expires,
    },
    { status: 201 },
  );
}

function hex(bytes) {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}
