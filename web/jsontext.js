// web/jsontext.js is responsible for indenting JSON text for reading without
// re-serialising it: numbers such as 20.0 or 9.2233720368547758E+21 keep the
// exact text the engine wrote. readable(text) is indent for a person's own
// data: a \uXXXX escape of a character beyond ASCII is shown as that
// character (the wire view keeps the bytes as sent).

// readable indents JSON text and shows each escaped character beyond ASCII
// as itself; quotes, backslashes and control characters stay escaped, so
// the text is still the same JSON.
export function readable(text) {
  return indent(text).replace(/\\(u([0-9a-fA-F]{4})|[^])/g, (escape, _, hex) => {
    const code = hex ? parseInt(hex, 16) : -1;
    return code >= 0x80 ? String.fromCharCode(code) : escape;
  });
}
export function indent(text) {
  if (typeof text !== "string" || !/^\s*[[{]/.test(text)) return text ?? "";
  let out = "";
  let depth = 0;
  let inString = false;
  const pad = () => "\n" + "  ".repeat(depth);
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    switch (c) {
      case '"':
        inString = true;
        out += c;
        break;
      case "{":
      case "[": {
        const close = c === "{" ? "}" : "]";
        let j = i + 1;
        while (/\s/.test(text[j] ?? "")) j++;
        if (text[j] === close) {
          out += c + close;
          i = j;
        } else {
          depth++;
          out += c + pad();
        }
        break;
      }
      case "}":
      case "]":
        depth = Math.max(0, depth - 1);
        out += pad() + c;
        break;
      case ",":
        out += "," + pad();
        break;
      case ":":
        out += ": ";
        break;
      default:
        if (!/\s/.test(c)) out += c;
    }
  }
  return out;
}
