#!/usr/bin/env node
// A minimal conformance adapter in JavaScript, to show the protocol is
// language-neutral.  It implements hello, trick_winner and legal_plays for
// Hucklebuck only and answers "unsupported" to everything else.
"use strict";
const readline = require("readline");

const RANKS = "23456789TJQKA";
const SUITS = "CDHS";

function parseCard(c) {
  if (typeof c !== "string" || c.length !== 2 || !RANKS.includes(c[0]) || !SUITS.includes(c[1])) {
    throw { code: "bad_request", message: `not a card: ${JSON.stringify(c)}` };
  }
  return { code: c, rank: RANKS.indexOf(c[0]), suit: c[1] };
}

function cards(list, name) {
  if (!Array.isArray(list)) throw { code: "bad_request", message: `${name} must be a list` };
  const out = list.map(parseCard);
  if (new Set(out.map((c) => c.code)).size !== out.length) {
    throw { code: "bad_request", message: `${name} lists a card twice` };
  }
  return out;
}

function trump(req) {
  if (typeof req.trump !== "string" || req.trump.length !== 1 || !SUITS.includes(req.trump)) {
    throw { code: "bad_request", message: "trump must be C, D, H or S" };
  }
  return req.trump;
}

function checkGame(req) {
  if (req.game !== "hucklebuck") throw { code: "unsupported", message: `game ${req.game} not supported` };
}

function trickWinner(req) {
  checkGame(req);
  const t = trump(req);
  const plays = cards(req.plays, "plays");
  if (plays.length < 2 || plays.length > 8) throw { code: "bad_request", message: "2 to 8 cards" };
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
  const hand = cards(req.hand, "hand");
  const trick = cards(req.trick || [], "trick");
  if (hand.length < 1 || hand.length > 5) throw { code: "bad_request", message: "1 to 5 cards in hand" };
  const inTrick = new Set(trick.map((c) => c.code));
  if (hand.some((c) => inTrick.has(c.code))) throw { code: "bad_request", message: "card in hand and trick" };
  let out = hand;
  if (trick.length > 0) {
    const follow = hand.filter((c) => c.suit === trick[0].suit);
    if (follow.length > 0) out = follow;
  }
  return out.slice().sort(canon).map((c) => c.code);
}

const OPS = {
  hello: () => ({ name: "node-mini", version: "0.1", protocol: 2, games: ["hucklebuck"],
                  ops: ["hello", "trick_winner", "legal_plays"], extensions: [] }),
  trick_winner: trickWinner,
  legal_plays: legalPlays,
};

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (line.trim() === "") return;
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    process.stdout.write(JSON.stringify({ id: null, ok: false, error: { code: "bad_request", message: "not JSON" } }) + "\n");
    return;
  }
  if (req === null || typeof req !== "object" || !("op" in req)) {
    process.stdout.write(JSON.stringify({ id: null, ok: false, error: { code: "bad_request", message: "no op" } }) + "\n");
    return;
  }
  const id = req.id === undefined ? null : req.id;
  const fn = OPS[req.op];
  let answer;
  if (!fn) {
    answer = { id, ok: false, error: { code: "unsupported", message: `op ${req.op} not supported` } };
  } else {
    try {
      answer = { id, ok: true, result: fn(req) };
    } catch (e) {
      const code = e && e.code ? e.code : "bad_request";
      answer = { id, ok: false, error: { code, message: e && e.message ? e.message : String(e) } };
    }
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
