// web/dom.js is responsible for building DOM nodes safely: text always goes
// in as text nodes (never as HTML), so names and values a person types can
// never run as markup.
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
  append(node, children);
}

// debounce delays fn until calls stop for ms milliseconds.
export function debounce(fn, ms) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

// number formats counts the way people read them: 32,768. Whole numbers are
// grouped here: the first toLocaleString of a page loads the browser's locale
// data, which cost the page's first render tens of milliseconds.
export function number(n) {
  const x = Number(n);
  if (!Number.isSafeInteger(x)) return x.toLocaleString("en-US");
  return String(x).replace(/\B(?=(\d{3})+$)/g, ",");
}

// mount fills a component's root with its own fixed markup (a constant in the
// component's module, never data) and returns a lookup by id inside it.
export function mount(root, html) {
  root.classList.add("part");
  root.innerHTML = html;
  return (id) => root.querySelector("#" + id);
}
