// web/files.js is responsible for handing text to the person: copying it to
// the clipboard and saving it as a file, the same way wherever the page does.

// copyText puts text on the clipboard and resolves with true. Where the
// browser refuses (no permission, an insecure origin) it selects field, the
// element that shows the text (an input's value, or another element's
// content), for the person to copy, and resolves with false.
export async function copyText(text, field = null) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (typeof field?.select === "function") field.select();
    else if (field) getSelection()?.selectAllChildren(field);
    return false;
  }
}

// URL_LIFE is how long a saved file's object URL outlives the click that
// saves it: the browser has read it by then.
const URL_LIFE = 1000;

// download saves text as the file name, of the given type.
export function download(name, text, type) {
  const a = fileLink(name, text, type);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), URL_LIFE);
}

// fileLink is a link that saves text as the file name, for the person to
// click later; its object URL is freed when signal aborts (without one,
// only download may use it).
export function fileLink(name, text, type, props = {}, label = "", signal = null) {
  const a = document.createElement("a");
  for (const [k, v] of Object.entries(props)) a.setAttribute(k, v);
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.textContent = label;
  signal?.addEventListener("abort", () => URL.revokeObjectURL(a.href), { once: true });
  return a;
}
