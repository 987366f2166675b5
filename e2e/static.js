// e2e/static.js is responsible for the hosts the browser tests serve from:
// a docs page on its own origin (docsSite), and the plain static hosts of
// make site (staticServer): a file at each path with a type from its extension,
// 404.html when missing, no compression and no knowledge of this project;
// optionally the headers a Netlify/Cloudflare Pages _headers file gives each
// path (as those hosts apply it), and a test's own changes to the answers.
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".gz": "application/gzip",
};

// headersFor reads a Netlify/Cloudflare Pages _headers file and returns the
// headers every rule matching urlPath adds (a rule ending in * matches the
// paths it begins), lower-cased names.
export function headersFor(text, urlPath) {
  const out = [];
  let matches = false;
  for (const line of text.split("\n")) {
    if (!line.trim() || line.trimStart().startsWith("#")) continue;
    if (!/^\s/.test(line)) {
      const rule = line.trim();
      matches = rule.endsWith("*") ? urlPath.startsWith(rule.slice(0, -1)) : urlPath === rule;
      continue;
    }
    if (matches) {
      const [name, ...value] = line.trim().split(":");
      out.push([name.trim().toLowerCase(), value.join(":").trim()]);
    }
  }
  return out;
}

// staticServer serves dir under prefix on a free loopback port, with an ETag
// from each file's size and time, so a browser revalidates (304) as it does
// with every real static host. headers: the
// text of a _headers file to apply; answer(rel, headers): a test's hook that
// may change a file's headers or return a status to send instead (rel is
// the path below prefix); gzip: a pattern of the paths it compresses (as a
// CDN that compresses scripts but not .wasm).
export function staticServer(dir, prefix, { headers = "", answer = () => 0, gzip = null } = {}) {
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    let rel = decodeURIComponent(url.pathname);
    if (!rel.startsWith(prefix)) rel = "/nope";
    rel = rel.slice(prefix.length);
    if (rel === "" || rel.endsWith("/")) rel += "index.html";
    const file = path.join(dir, path.normalize("/" + rel));
    const sent = Object.fromEntries(headersFor(headers, "/" + rel));
    const status = answer(rel, sent);
    if (!status && existsSync(file) && statSync(file).isFile()) {
      const info = statSync(file);
      const etag = `"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`;
      if (req.headers["if-none-match"] === etag) {
        res.writeHead(304, { ...sent, ETag: etag });
        res.end();
        return;
      }
      const zip = gzip?.test(rel) && /gzip/.test(req.headers["accept-encoding"] ?? "");
      const body = zip ? gzipSync(readFileSync(file)) : readFileSync(file);
      res.writeHead(200, {
        ...sent, ETag: etag, "Content-Type": types[path.extname(file)] ?? "application/octet-stream", "Content-Length": body.length,
        ...(zip && { "Content-Encoding": "gzip", Vary: "Accept-Encoding" }),
      });
      res.end(req.method === "HEAD" ? undefined : body);
    } else {
      res.writeHead(status || 404, { ...sent, "Content-Type": types[".html"] });
      res.end(req.method === "HEAD" ? undefined : readFileSync(path.join(dir, "404.html")));
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${server.address().port}${prefix}`, stop: () => server.close() })));
}

// csp is a docs page's policy: the strict one of e2e/embed.test.js plus the
// other origin the embed comes from (and, unless wasm is false, WebAssembly).
export const csp = (other, wasm = true) =>
  `default-src 'self'; script-src 'self' ${other}${wasm ? " 'wasm-unsafe-eval'" : ""}; style-src 'self' ${other}; ` +
  `connect-src 'self' ${other}; frame-src ${other}; img-src 'self' data:`;

// docsSite serves one docs page on its own origin under csp: the element's
// script from script, the iframe form from frame when given, then embeds
// (HTML).
export function docsSite({ script, other, frame, wasm = true, embeds }) {
  const html = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Docs</title>
<script type="module" src="${script}"></script>
<h1>Docs</h1>
${frame ? `<iframe id="frame" src="${frame}#example=sample" title="Iframe playground" width="900" height="640"></iframe>` : ""}
${embeds}
</html>`;
  const server = createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": csp(other, wasm) });
    res.end(html);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, stop: () => server.close() })));
}
