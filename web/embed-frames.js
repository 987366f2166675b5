// web/embed-frames.js is responsible for the host page's side of the iframe
// form (embed.html): a page that loads this module (a script from the
// embed's origin, which a strict CSP names anyway) gets every
// <iframe data-tableplay> sized without inline style or inline script —
// the width of its column, no border, and the content height the frame
// posts ({type: "tableplay:height", height}). Until the frame reports,
// the iframe keeps its height attribute, the space the embed will take,
// so the page does not jump as it loads. docs/embedding.md, "The iframe form".

// MAX_HEIGHT bounds what a frame may ask for.
const MAX_HEIGHT = 20_000;

function fit(frame) {
  frame.style.width = "100%";
  frame.style.border = "0";
  frame.style.display = "block";
}

function fitAll() {
  for (const f of document.querySelectorAll("iframe[data-tableplay]")) if (f.style.width !== "100%") fit(f);
}

addEventListener("message", (e) => {
  if (e.data?.type !== "tableplay:height") return;
  const height = Number(e.data.height);
  if (!Number.isFinite(height) || height < 0) return;
  for (const f of document.querySelectorAll("iframe[data-tableplay]")) {
    if (f.contentWindow !== e.source) continue;
    fit(f);
    f.style.height = Math.min(Math.ceil(height), MAX_HEIGHT) + "px";
  }
});

// Frames added later (client-side navigation of a docs site) are fitted too.
new MutationObserver(fitAll).observe(document.documentElement, { childList: true, subtree: true });
fitAll();
