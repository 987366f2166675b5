// web/dom.js is responsible for building DOM nodes safely: text always goes
// in as text nodes (never as HTML), so names and values a person types can
// never run as markup.
import { formatNumber, localize, onChange } from "./i18n.js";

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key in node && key !== "list") node[key] = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// replace empties a node and fills it with new children.
export function replace(node, ...children) {
  node.replaceChildren();
  node.render = null;
  append(node, children);
}

// live fills node with what render() returns, now and again after every
// switch of locale (render builds its text with t()), until node is
// filled otherwise (replace, or live again) or signal aborts.
export function live(node, render, signal = null) {
  replace(node, render());
  node.render = render;
  const stop = onChange(() => {
    if (node.render !== render) return stop();
    node.replaceChildren();
    append(node, [render()]);
  }, signal);
}

// liveText sets node's text to what text() returns, now and after every
// switch of locale, until liveText is called on it again.
export function liveText(node, text, signal = null) {
  node.textContent = text();
  node.renderText = text;
  const stop = onChange(() => {
    if (node.renderText !== text) return stop();
    node.textContent = text();
  }, signal);
}

// debounce delays fn until calls stop for ms milliseconds.
export function debounce(fn, ms) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

// number writes a count as the shown locale groups its digits (32,768;
// 32 768 in Polish and French).
export function number(n) {
  return formatNumber(Number(n));
}

// mount fills a component's root with its own fixed markup (a constant in the
// component's module, never data) and returns a lookup by id inside it. The
// markup's data-i18n text follows the shown locale (i18n.js localize) until
// signal aborts.
export function mount(root, html, signal = null) {
  root.classList.add("part");
  root.innerHTML = html;
  localize(root, signal);
  return (id) => root.querySelector("#" + id);
}
