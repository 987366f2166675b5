// web/qr.js is responsible for QR codes of room links, for a projector: the
// text in byte mode at error correction level M (or L when M cannot hold
// it), the smallest version that fits, the mask with the lowest penalty
// (ISO/IEC 18004), drawn as an SVG. It holds no data-model logic: a room
// link is text.
//
// qrMatrix(text) → rows of booleans (true: dark), without the quiet zone;
// qrSVG(text, label) → an <svg> element with a 4-module quiet zone, dark on
// light whatever the page's theme.

// Per version (index 1-40): error correction codewords per block, and the
// number of blocks, for levels L and M.
const ECC_PER_BLOCK = {
  L: [0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
  M: [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
};
const BLOCKS = {
  L: [0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
  M: [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
};
// The two bits each level puts in the format information.
const LEVEL_BITS = { L: 1, M: 0 };

// rawModules is how many modules of a version carry data and correction.
function rawModules(version) {
  let n = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2;
    n -= (25 * align - 10) * align - 55;
    if (version >= 7) n -= 36;
  }
  return n;
}

const dataCodewords = (version, level) => Math.floor(rawModules(version) / 8) - ECC_PER_BLOCK[level][version] * BLOCKS[level][version];

// GF(256) multiplication modulo x^8 + x^4 + x^3 + x^2 + 1.
function mul(x, y) {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z & 0xff;
}

// divisor is the Reed-Solomon generator polynomial of a degree (its
// coefficients from the highest power down, the leading 1 left out).
function divisor(degree) {
  const out = new Array(degree).fill(0);
  out[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      out[j] = mul(out[j], root);
      if (j + 1 < degree) out[j] ^= out[j + 1];
    }
    root = mul(root, 2);
  }
  return out;
}

function remainder(data, div) {
  const out = new Array(div.length).fill(0);
  for (const b of data) {
    const factor = b ^ out.shift();
    out.push(0);
    div.forEach((c, i) => (out[i] ^= mul(c, factor)));
  }
  return out;
}

// codewords are the data bytes (mode, count, text, padding) in blocks with
// their correction bytes, interleaved.
function codewords(bytes, version, level) {
  const bits = [];
  const put = (value, n) => {
    for (let i = n - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  put(4, 4); // byte mode
  put(bytes.length, version < 10 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  const capacity = dataCodewords(version, level) * 8;
  put(0, Math.min(4, capacity - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) put(pad, 8);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));

  const blocks = BLOCKS[level][version];
  const eccLen = ECC_PER_BLOCK[level][version];
  const raw = Math.floor(rawModules(version) / 8);
  const short = blocks - (raw % blocks);
  const shortLen = Math.floor(raw / blocks);
  const div = divisor(eccLen);
  const all = [];
  for (let i = 0, k = 0; i < blocks; i++) {
    const dat = data.slice(k, k + shortLen - eccLen + (i < short ? 0 : 1));
    k += dat.length;
    const ecc = remainder(dat, div);
    if (i < short) dat.push(0); // a place holder, skipped when interleaving
    all.push(dat.concat(ecc));
  }
  const out = [];
  for (let i = 0; i < all[0].length; i++) {
    all.forEach((block, j) => {
      if (i !== shortLen - eccLen || j >= short) out.push(block[i]);
    });
  }
  return out;
}

function alignmentPositions(version) {
  if (version === 1) return [];
  const size = version * 4 + 17;
  const count = Math.floor(version / 7) + 2;
  const step = version === 32 ? 26 : Math.ceil((version * 4 + 4) / (count * 2 - 2)) * 2;
  const out = [6];
  for (let pos = size - 7; out.length < count; pos -= step) out.splice(1, 0, pos);
  return out;
}

const MASKS = [
  (x, y) => (x + y) % 2 === 0,
  (x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

// grid draws one symbol with a mask.
function grid(version, level, words, mask) {
  const size = version * 4 + 17;
  const dark = Array.from({ length: size }, () => new Array(size).fill(false));
  const fixed = Array.from({ length: size }, () => new Array(size).fill(false));
  const set = (x, y, on) => {
    dark[y][x] = on;
    fixed[y][x] = true;
  };
  for (let i = 0; i < size; i++) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  const finder = (cx, cy) => {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = cx + dx;
        const y = cy + dy;
        const d = Math.max(Math.abs(dx), Math.abs(dy));
        if (x >= 0 && x < size && y >= 0 && y < size) set(x, y, d !== 2 && d !== 4);
      }
    }
  };
  finder(3, 3);
  finder(size - 4, 3);
  finder(3, size - 4);
  const align = alignmentPositions(version);
  for (const [i, ax] of align.entries()) {
    for (const [j, ay] of align.entries()) {
      const corner = (i === 0 && j === 0) || (i === 0 && j === align.length - 1) || (i === align.length - 1 && j === 0);
      if (corner) continue;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) set(ax + dx, ay + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }
  }
  const format = (on) => {
    const data = (LEVEL_BITS[level] << 3) | mask;
    let rem = data;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    const bits = ((data << 10) | rem) ^ 0x5412;
    const bit = (i) => on && ((bits >>> i) & 1) === 1;
    for (let i = 0; i <= 5; i++) set(8, i, bit(i));
    set(8, 7, bit(6));
    set(8, 8, bit(7));
    set(7, 8, bit(8));
    for (let i = 9; i < 15; i++) set(14 - i, 8, bit(i));
    for (let i = 0; i < 8; i++) set(size - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i++) set(8, size - 15 + i, bit(i));
    set(8, size - 8, true);
  };
  format(false); // reserved while the data is placed
  if (version >= 7) {
    let rem = version;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (version << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const on = ((bits >>> i) & 1) === 1;
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      set(a, b, on);
      set(b, a, on);
    }
  }
  let i = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let vert = 0; vert < size; vert++) {
      for (let j = 0; j < 2; j++) {
        const x = right - j;
        const y = ((right + 1) & 2) === 0 ? size - 1 - vert : vert;
        if (fixed[y][x]) continue;
        const on = i < words.length * 8 && ((words[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
        i++;
        dark[y][x] = on !== MASKS[mask](x, y);
      }
    }
  }
  format(true);
  return dark;
}

// penalty scores a symbol as the standard does: runs of one colour, 2×2
// blocks, finder-like patterns and the balance of dark and light.
function penalty(dark) {
  const size = dark.length;
  let score = 0;
  const lines = [];
  for (let y = 0; y < size; y++) lines.push(dark[y].map((d) => (d ? "1" : "0")).join(""));
  for (let x = 0; x < size; x++) lines.push(dark.map((row) => (row[x] ? "1" : "0")).join(""));
  for (const line of lines) {
    for (const run of line.match(/0{5,}|1{5,}/g) ?? []) score += run.length - 2;
    for (const pattern of [/(?=10111010000)/g, /(?=00001011101)/g]) score += 40 * (line.match(pattern)?.length ?? 0);
  }
  let on = 0;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (dark[y][x]) on++;
      if (x + 1 < size && y + 1 < size && dark[y][x] === dark[y][x + 1] && dark[y][x] === dark[y + 1][x] && dark[y][x] === dark[y + 1][x + 1]) score += 3;
    }
  }
  score += 10 * Math.floor(Math.abs(on * 20 - size * size * 10) / (size * size));
  return score;
}

// qrMatrix encodes text (as UTF-8) in the smallest symbol that holds it.
export function qrMatrix(text) {
  const bytes = [...new TextEncoder().encode(text)];
  for (const level of ["M", "L"]) {
    for (let version = 1; version <= 40; version++) {
      const room = dataCodewords(version, level) * 8 - 4 - (version < 10 ? 8 : 16);
      if (bytes.length * 8 > room) continue;
      const words = codewords(bytes, version, level);
      let best = null;
      let bestScore = Infinity;
      for (let mask = 0; mask < 8; mask++) {
        const g = grid(version, level, words, mask);
        const s = penalty(g);
        if (s < bestScore) [best, bestScore] = [g, s];
      }
      return best;
    }
  }
  throw new Error(`${bytes.length} bytes do not fit in a QR code`);
}

const SVG = "http://www.w3.org/2000/svg";

// qrSVG draws text's QR code: a light square with a 4-module quiet zone and
// the dark modules as one path, crisp at any size; label names it.
export function qrSVG(text, label) {
  const m = qrMatrix(text);
  const side = m.length + 8;
  let d = "";
  m.forEach((row, y) => row.forEach((on, x) => {
    if (on) d += `M${x + 4} ${y + 4}h1v1h-1z`;
  }));
  const svg = document.createElementNS(SVG, "svg");
  for (const [k, v] of Object.entries({ viewBox: `0 0 ${side} ${side}`, role: "img", "aria-label": label, "shape-rendering": "crispEdges", class: "qr" })) svg.setAttribute(k, v);
  const back = document.createElementNS(SVG, "rect");
  for (const [k, v] of Object.entries({ width: side, height: side, fill: "#fff" })) back.setAttribute(k, v);
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(back, path);
  // As wide as its box allows, up to a size a room can read from its seats
  // (set through the CSSOM, which a strict CSP allows).
  svg.style.width = "100%";
  svg.style.maxWidth = "24rem";
  svg.style.display = "block";
  return svg;
}
