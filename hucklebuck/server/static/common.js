// Shared helpers for the lobby and the table: DOM building, card names and pictures.

const SUIT_GLYPH = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

/** Build an element: h("div", {class: "x", onclick: fn}, child, "text", ...). Text is always plain text. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/** Show ``children`` (nodes, text, arrays: what h() takes) in ``el``, replacing only the children
 * that differ from those shown. A child equal to the one in its place (same tags, attributes and text:
 * Node.isEqualNode) is kept as it is, so a focused button keeps the focus, a screen reader keeps its
 * place, and the browser has nothing to lay out or draw again. Listeners are not compared: a handler
 * must act only on what its element's attributes show (a move's id in data-move, a card in data-card)
 * or on state every render shares. Returns whether anything changed. */
export function swap(el, ...children) {
  const fresh = [];
  append({ append: (node) => fresh.push(node) }, children);
  const shown = [...el.childNodes];
  const same = Math.min(shown.length, fresh.length);
  let changed = false;
  for (let i = 0; i < same; i++) {
    if (!shown[i].isEqualNode(fresh[i])) { shown[i].replaceWith(fresh[i]); changed = true; }
  }
  for (const node of shown.slice(same)) { node.remove(); changed = true; }
  if (fresh.length > same) { el.append(...fresh.slice(same)); changed = true; }
  return changed;
}

/** Set an element's text only when it differs: the same text is not written again (a live region is
 * not made to say it twice, and nothing is laid out again). */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// A card as a screen reader says it: the card pictures' own names (hucklebuck.cardart.spoken).
const RANK_WORD = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven",
  6: "six", 5: "five", 4: "four", 3: "three", 2: "two" };
const GLYPH_SUIT = { "♣": "C", "♦": "D", "♥": "H", "♠": "S" };

/** "QH" -> "queen of hearts" */
export function cardName(code) {
  return `${RANK_WORD[code.slice(0, -1)] || code.slice(0, -1)} of ${SUIT_NAME[code.slice(-1)] || "?"}`;
}

/** Text with every card in it named for a screen reader: "play Q♥" -> "play queen of hearts"
 * ("J♦*", Deer Park's marked left bower: "jack of diamonds, left bower"). */
export function spoken(text) {
  return String(text).replace(/\b(10|[2-9JQKA])([♣♦♥♠])(\*?)/g, (_, rank, glyph, mark) =>
    cardName(`${rank === "10" ? "T" : rank}${GLYPH_SUIT[glyph]}`) + (mark ? " (left bower)" : ""))
    .replace(/( of (?:clubs|diamonds|hearts|spades)(?: \(left bower\))?) (?=(?:two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of )/g, "$1, ")
    .replace(/([♣♦♥♠]) (clubs|diamonds|hearts|spades)\b/g, "$2");  // "♥ hearts": "hearts" once
}

/** Text with coloured suit symbols for the eye and the cards named for a screen reader. */
export function saidText(text) {
  const heard = spoken(text);
  if (heard === String(text)) return suitedText(text);
  return [h("span", { "aria-hidden": "true" }, ...suitedText(text)), h("span", { class: "sr-only" }, heard)];
}

/** "TH" -> "10♥" */
export function cardText(code) {
  const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
  return rank + (SUIT_GLYPH[code.slice(-1)] || "?");
}

export function suitGlyph(suit) { return SUIT_GLYPH[suit] || suit; }
export function suitName(suit) { return SUIT_NAME[suit] || suit; }
export function isRed(suit) { return suit === "H" || suit === "D"; }

/** The picture of one card (served by the table server), or of a card back when code is null. */
export function cardImg(code, { alt = null, cls = "card" } = {}) {
  const src = `/cards/${code || "back"}.svg`;
  return h("img", { class: cls, src, alt: alt === null ? (code ? cardName(code) : "a face-down card") : alt,
    width: 60, height: 84, draggable: "false" });
}

/** Text with its suit symbols coloured (red hearts and diamonds); the symbols stay as text. */
export function suitedText(text) {
  const out = [];
  let buf = "";
  for (const ch of String(text)) {
    if (ch === "♥" || ch === "♦") {
      if (buf) out.push(buf);
      buf = "";
      out.push(h("span", { class: ch === "♥" ? "suit-h" : "suit-d" }, ch));
    } else buf += ch;
  }
  if (buf) out.push(buf);
  return out;
}

/** JSON over fetch; throws an Error with the server's plain-words message on failure. */
export async function api(path, options = {}) {
  const init = { headers: { "Content-Type": "application/json" }, ...options };
  if (init.body && typeof init.body !== "string") init.body = JSON.stringify(init.body);
  const resp = await fetch(path, init);
  let data = null;
  try { data = await resp.json(); } catch { data = null; }
  if (!resp.ok) {
    const msg = data && data.error && data.error.message ? data.error.message : `the server answered ${resp.status}`;
    throw new Error(msg);
  }
  return data;
}

export function plural(n, word, many = word + "s") { return `${n} ${Math.abs(n) === 1 ? word : many}`; }

/** Text without the rule-source citations ("(S0, DEF #4)"), which mean nothing at the table. */
export function plain(text) {
  let t = String(text || "");
  t = t.replace(/\bS\d+'s rule\b/g, "the usual rule").replace(/\bS\d+: /g, "");
  t = t.replace(/\bDEF #\d+(?:\s*[,-]\s*#?\d+)*(?: variant)?/g, "");
  t = t.replace(/\bR\d+\b/g, "").replace(/\bS\d+(?: header)?\b/g, "");
  t = t.replace(/\(\s*[,;\s]*\)/g, "").replace(/\(\s*(?:[,;]\s*)+/g, "(").replace(/(?:\s*[,;])+\s*\)/g, ")");
  t = t.replace(/^[\s.;,]+/, "").replace(/\s+([.,;:])/g, "$1").replace(/\s{2,}/g, " ").trim();
  return /^[.;,\s]*$/.test(t) ? "" : t;
}
