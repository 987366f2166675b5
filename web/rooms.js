// web/rooms.js is responsible for "Start a room" in the Connect panel: it
// finds the rooms service (the Worker that serves this page answers
// `POST /rooms`, docs/hosting.md; another host may name one with
// <meta name="tableplay-rooms" content="https://…/rooms">), creates a room
// there and shows what to share: the write link for a class, the read link
// for an audience (each with a QR code for a projector), when the room
// expires and its limits.
//
// The answer of POST /rooms carries the room's key and connection string
// too; the page drops them at once (it connects with the write link's SAS,
// as everyone it is shared with does) and keeps the links in the panel for
// this visit only, as web/connect.js keeps every key and SAS.
//
// roomsService() → the URL of POST /rooms, or "" when this site has none;
// startRoom(url) → {room} or {error}; roomInfo(room, onCopied) → nodes.
import { el } from "./dom.js";
import { copyText } from "./files.js";
import { t, formatDate, withLang } from "./i18n.js";

// TIMEOUT bounds the probe and the create (a new room starts its engine:
// a second or so).
const TIMEOUT = 15_000;

let found = null; // the probe's promise, asked once a visit

// roomsService resolves to the rooms service's URL: the page's meta tag,
// else this origin's /rooms when it answers the preflight of a POST as the
// entry Worker does (a static host or tableplay serve answers 404).
export function roomsService() {
  found ??= probe();
  return found;
}

async function probe() {
  const named = document.querySelector('meta[name="tableplay-rooms"]')?.content?.trim();
  if (named) {
    try {
      return new URL(named, location.href).href;
    } catch {
      return "";
    }
  }
  if (!/^https?:$/.test(location.protocol)) return "";
  const url = new URL("/rooms", location.origin).href;
  try {
    const res = await fetch(url, { method: "OPTIONS", credentials: "omit", cache: "no-store", signal: AbortSignal.timeout(TIMEOUT) });
    const methods = res.headers.get("Access-Control-Allow-Methods") ?? "";
    return res.ok && /\bPOST\b/i.test(methods) ? url : "";
  } catch {
    return "";
  }
}

// startRoom asks the service for a room. Only the fields the page shows
// are kept: the key and the connection string are not.
export async function startRoom(url) {
  let res;
  try {
    res = await fetch(url, { method: "POST", credentials: "omit", cache: "no-store", signal: AbortSignal.timeout(TIMEOUT) });
  } catch (err) {
    const late = err?.name === "TimeoutError" || err?.name === "AbortError";
    const origin = new URL(url).origin;
    return { error: late ? t("rooms.late", { origin, s: TIMEOUT / 1000 }) : t("rooms.noAnswer", { origin }) };
  }
  let body = null;
  try {
    body = await res.json();
  } catch {
    // not JSON: said below
  }
  if (res.status !== 201 || typeof body?.writeLink !== "string" || typeof body?.readLink !== "string") {
    const error = body?.["odata.error"];
    const said = error ? ` · ${error.code}: ${error.message?.value ?? error.message ?? ""}` : "";
    return { error: t("rooms.notCreated", { status: `${res.status} ${res.statusText}${said}`.trim() }) };
  }
  const { account, endpoint, readLink, writeLink, expires, idleSeconds = 0, limits = {} } = body;
  return { room: { account, endpoint, readLink, writeLink, expires, idleSeconds, limits } };
}

// span says a duration in seconds in its largest whole unit.
function span(seconds) {
  for (const [unit, size] of [["rooms.days", 86400], ["rooms.hours", 3600], ["rooms.minutes", 60]]) {
    if (seconds >= size && seconds % size === 0) return t(unit, { n: seconds / size });
  }
  return t("rooms.seconds", { n: seconds });
}

// limitsText says a room's limits in words (0 or absent: none).
function limitsText({ entities = 0, bytes = 0, rps = 0 }) {
  const parts = [];
  if (entities) parts.push(t("rooms.entities", { n: entities }));
  if (bytes) parts.push(bytes % 2 ** 20 === 0 ? t("rooms.mib", { n: bytes / 2 ** 20 }) : t("rooms.bytes", { n: bytes }));
  if (rps) parts.push(t("rooms.rps", { n: rps }));
  return parts.length ? parts.join(t("rooms.listSep")) : t("rooms.noLimits");
}

// LINK_TEXTS are the message ids of each kind of link.
const LINK_TEXTS = {
  read: { label: "rooms.read", copy: "rooms.read.copy", copied: "rooms.read.copied", select: "rooms.read.select", qr: "rooms.read.qr", qrLabel: "rooms.read.qrLabel", hint: "rooms.read.hint" },
  write: { label: "rooms.write", copy: "rooms.write.copy", copied: "rooms.write.copied", select: "rooms.write.select", qr: "rooms.write.qr", qrLabel: "rooms.write.qrLabel", hint: "rooms.write.hint" },
};

// roomInfo shows a started room: each link in a read-only field with a
// Copy button, the expiry and the limits. onCopied(text) announces a copy
// (text a function that words it in the shown language).
// The links name the shown language, so the class sees the room in it.
export function roomInfo(room, onCopied) {
  const link = (id, kind, value) => {
    const ids = LINK_TEXTS[kind];
    const label = t(ids.label);
    value = withLang(value);
    const input = el("input", { id, type: "text", readonly: true, "aria-describedby": `${id}-hint` });
    input.spellcheck = false;
    input.value = value;
    const copy = el("button", { type: "button", class: "secondary", "aria-label": t(ids.copy) }, t("rooms.copy"));
    copy.addEventListener("click", async () => {
      const id = (await copyText(input.value, input)) ? ids.copied : ids.select;
      onCopied(() => t(id));
    });
    // The QR code is drawn when first opened (web/qr.js is loaded then).
    const qr = el("details", { class: "room-qr", id: `${id}-qr` }, el("summary", {}, t(ids.qr)));
    const draw = async () => {
      if (!qr.open || qr.querySelector("svg")) return;
      const { qrSVG } = await import("./qr.js");
      qr.append(qrSVG(value, t(ids.qrLabel)));
    };
    qr.addEventListener("toggle", draw);
    queueMicrotask(draw); // reopened after a switch of language
    return el("div", { class: "stack" },
      el("label", { for: id }, label),
      el("div", { class: "row room-link" }, input, copy),
      el("p", { id: `${id}-hint`, class: "hint" }, t(ids.hint)),
      qr);
  };
  const expires = new Date(room.expires);
  const when = Number.isNaN(expires.getTime()) ? room.expires : formatDate(expires, { dateStyle: "medium", timeStyle: "short" });
  const terms = [t("rooms.until", { when })];
  if (room.idleSeconds) terms.push(t("rooms.idle", { span: span(room.idleSeconds) }));
  terms.push(t("rooms.limits", { limits: limitsText(room.limits) }));
  return [
    el("h3", {}, t("rooms.heading", { account: room.account })),
    link("room-write-link", "write", room.writeLink),
    link("room-read-link", "read", room.readLink),
    el("p", { id: "room-terms", class: "room-terms" }, terms.join(" ")),
  ];
}
