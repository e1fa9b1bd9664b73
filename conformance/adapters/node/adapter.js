#!/usr/bin/env node
// A small conformance adapter in JavaScript, to show that the protocol is
// language-neutral.  It offers hello, trick_winner and legal_plays for
// Hucklebuck only; the runner skips the cases of other games and operations.
// It follows every framing and request-shape rule of the protocol page, so it
// is a fair start for an adapter of your own.
"use strict";

const RANKS = "23456789TJQKA";
const SUITS = "CDHS";
const GAMES = ["hucklebuck", "buckem", "deerpark"]; // the protocol's games
const MY_GAMES = ["hucklebuck"]; // the ones this adapter plays

class ProtocolError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}
const bad = (message) => new ProtocolError("bad_request", message);

function parseCard(c) {
  if (typeof c !== "string" || c.length !== 2 || !RANKS.includes(c[0]) || !SUITS.includes(c[1])) {
    throw bad(`not a card: ${JSON.stringify(c)}`);
  }
  return { code: c, rank: RANKS.indexOf(c[0]), suit: c[1] };
}

function cards(list, name, lo, hi) {
  if (!Array.isArray(list)) throw bad(`${name} must be a list of cards`);
  const out = list.map(parseCard);
  if (new Set(out.map((c) => c.code)).size !== out.length) throw bad(`${name} lists a card twice`);
  if (out.length < lo || out.length > hi) throw bad(`${name} holds ${lo} to ${hi} cards, not ${out.length}`);
  return out;
}

// The order of checks: the game (present and a string, else bad_request;
// known, else unsupported), then the rest of the request.
function checkGame(req) {
  if (typeof req.game !== "string") throw bad("game must be given, as a string");
  if (!GAMES.includes(req.game) || !MY_GAMES.includes(req.game)) {
    throw new ProtocolError("unsupported", `game ${JSON.stringify(req.game)} is not offered here`);
  }
}

function trump(req) {
  if (typeof req.trump !== "string" || req.trump.length !== 1 || !SUITS.includes(req.trump)) {
    throw bad("trump must be C, D, H or S");
  }
  return req.trump;
}

function trickWinner(req) {
  checkGame(req);
  const t = trump(req);
  const plays = cards(req.plays, "plays", 2, 8);
  let best = 0;
  plays.forEach((c, i) => {
    const b = plays[best];
    if (c.suit === t) {
      if (b.suit !== t || c.rank > b.rank) best = i;
    } else if (b.suit !== t && c.suit === b.suit && c.rank > b.rank) {
      best = i;
    }
  });
  return best;
}

const canon = (a, b) => SUITS.indexOf(a.suit) - SUITS.indexOf(b.suit) || a.rank - b.rank;

function legalPlays(req) {
  checkGame(req);
  trump(req);
  const hand = cards(req.hand, "hand", 1, 5);
  const trick = cards(req.trick === undefined ? [] : req.trick, "trick", 0, 7); // default []
  const inTrick = new Set(trick.map((c) => c.code));
  if (hand.some((c) => inTrick.has(c.code))) throw bad("a card is both in the hand and on the table");
  let out = hand;
  if (trick.length > 0) {
    const follow = hand.filter((c) => c.suit === trick[0].suit);
    if (follow.length > 0) out = follow;
  }
  return out.slice().sort(canon).map((c) => c.code);
}

// A Map, not an object: "toString" or "__proto__" must not name an operation.
const OPS = new Map([
  ["hello", () => ({ name: "node-mini", version: "0.3", protocol: 3, games: MY_GAMES,
                     ops: ["hello", "trick_winner", "legal_plays"], extensions: [] })],
  ["trick_winner", trickWinner],
  ["legal_plays", legalPlays],
]);

const failure = (id, code, message) => ({ id, ok: false, error: { code, message } });
const utf8 = new TextDecoder("utf-8", { fatal: true });

// One line (bytes, without its newline) in, one answer object out (null: no answer).
function answer(bytes) {
  let text;
  try {
    text = utf8.decode(bytes);
  } catch (e) {
    return failure(null, "bad_request", "the line is not UTF-8");
  }
  // Empty: nothing but space, tab, CR, LF, VT or FF (String.trim would also drop a no-break space).
  if (/^[ \t\r\n\v\f]*$/.test(text)) return null;
  let req;
  try {
    // JSON.parse refuses NaN and Infinity; 1e400 it reads as Infinity, which
    // standard JSON cannot hold, so the reviver refuses every non-finite number.
    req = JSON.parse(text, (key, value) => {
      if (typeof value === "number" && !Number.isFinite(value)) throw bad("a number beyond a double");
      return value;
    });
  } catch (e) {
    return failure(null, "bad_request", `not standard JSON: ${e.message}`); // nesting too deep lands here too
  }
  if (req === null || typeof req !== "object" || Array.isArray(req) || !Object.hasOwn(req, "op")) {
    return failure(null, "bad_request", "a request is an object with an op");
  }
  const id = Object.hasOwn(req, "id") ? req.id : null;
  if (typeof req.op !== "string" || !OPS.has(req.op)) {
    return failure(id, "unsupported", `unknown op ${JSON.stringify(req.op)}`);
  }
  try {
    return { id, ok: true, result: OPS.get(req.op)(req) };
  } catch (e) {
    if (e instanceof ProtocolError) return failure(id, e.code, e.message);
    process.stderr.write(`internal error: ${e && e.stack ? e.stack : e}\n`);
    return failure(id, "bad_request", "internal error");
  }
}

// Read raw bytes (not text: a line that is not UTF-8 must be refused, not repaired).
let pending = Buffer.alloc(0);
process.stdin.on("data", (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  let nl;
  while ((nl = pending.indexOf(0x0a)) >= 0) {
    const line = pending.subarray(0, nl);
    pending = pending.subarray(nl + 1);
    const out = answer(line);
    if (out !== null) process.stdout.write(JSON.stringify(out) + "\n");
  }
});
process.stdin.on("end", () => {
  if (pending.length > 0) {
    const out = answer(pending);
    if (out !== null) process.stdout.write(JSON.stringify(out) + "\n");
  }
  process.exitCode = 0;
});
