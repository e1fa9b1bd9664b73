// The table page: one WebSocket to the server, which is the only source of truth. The page draws each
// state the server sends, sends moves, and reconnects by itself with backoff when the connection drops.
import { cardName, h, plain, spoken } from "./common.js";
import { graceLine, graceText, render } from "./render.js";

const CLOSE_TAKEN_OVER = 4001;
const isFatalClose = (code) => code >= 4400 && code < 4500;
const FATAL_CODES = new Set(["unknown_table", "bad_token"]);

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const token = location.hash.length > 1 ? location.hash.slice(1) : null;
const $ = (id) => document.getElementById(id);

// A move that is your only legal one is played for you after a moment, as the terminal does (its
// --ask-forced turns that off there): nothing is decided, the click would only slow the table down, and
// the page says what it played. FORCED_PAUSE_MS lets the person see it happen.
const FORCED_PAUSE_MS = 900;

const ctx = {
  you: null, connected: false, pending: false, hintPending: false, hint: null, forced: null, receivedAt: 0,
  selected: new Set(), openGroups: new Set(),
  act, toggle, askHint, rematch,
};
let ws = null;
let seq = -1;
let view = null;
let attempts = 0;
let retryTimer = null;
let stopped = false;
let errorTimer = null;
let noticeTimer = null;
let forcedTimer = null;

function setConn(state, text) {
  const conn = $("conn");
  conn.textContent = text;
  conn.className = `conn${state === "up" ? "" : state === "gone" ? " gone" : " down"}`;
  document.body.dataset.conn = state;
}

function showBanner(text) {
  const b = $("banner-conn");
  b.replaceChildren();
  if (!text) { b.classList.add("hidden"); return; }
  b.append(text);
  b.classList.remove("hidden");
  return b;
}

function showError(message) {
  const b = $("banner-error");
  b.textContent = message;
  b.classList.remove("hidden");
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => b.classList.add("hidden"), 8000);
}

let previousNotices = null;
let noticeHand = null;  // the hand a notice up top is about (null: about the table), gone at the next deal

/** A new table notice (someone dropped out, came back, the timer ran out) shows up top for a while;
 * one about a hand (``hand``: its number) goes as soon as the next hand is dealt. */
function showNotice(text, hand = null) {
  const b = $("banner-notice");
  b.textContent = text;
  b.classList.remove("hidden");
  noticeHand = hand;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { b.classList.add("hidden"); noticeHand = null; }, 10000);
}

function hideHandNotice(handNumber) {
  if (noticeHand === null || noticeHand === handNumber) return;
  clearTimeout(noticeTimer);
  $("banner-notice").classList.add("hidden");
  noticeHand = null;
}

function draw() { if (view) render(view, ctx); }

/** What happened since the view shown, said once through the page's live region (a screen reader reads
 * it out): each card played, each line the hand's log gains (bids, calls, won tricks), a new deal. */
export function news(before, after) {
  const out = [];
  const name = (seat) => (after.seats[seat] ? after.seats[seat].name : `seat ${seat + 1}`);
  const sameHand = before && before.hand_number === after.hand_number;
  if (!sameHand) out.push(`Hand ${after.hand_number}: ${name(after.dealer)} deals.`);
  const oldLog = sameHand ? before.log || [] : [];
  const newLog = after.log || [];
  const fresh = newLog.length >= oldLog.length ? newLog.slice(oldLog.length) : newLog;
  const oldTrick = sameHand && before.current_trick ? before.current_trick : [];
  const trick = after.current_trick || [];
  const played = trick.length > oldTrick.length && trick[0] && oldTrick.every((p, i) => trick[i] && trick[i].card === p.card)
    ? trick.slice(oldTrick.length) : (trick.length && !oldTrick.length ? trick : []);
  for (const p of played) out.push(`${name(p.seat)} plays ${cardName(p.card)}.`);
  for (const line of fresh) out.push(`${spoken(plain(line))}.`);
  return out.join(" ").replace(/\.\./g, ".");
}

function announce(text) {
  if (!text) return;
  const box = $("announce");
  box.textContent = text;
}

function send(message) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return false;
  ws.send(typeof message === "string" ? message : JSON.stringify(message));
  return true;
}

function act(move) {
  if (ctx.pending || !ctx.connected) return;
  if (send({ type: "act", action: move.id, seq })) {
    ctx.pending = true;
    draw();
  }
}

function toggle(code) {
  if (ctx.selected.has(code)) ctx.selected.delete(code); else ctx.selected.add(code);
  draw();
}

function askHint() {
  if (ctx.hintPending) return;
  if (send({ type: "hint", seq })) {
    ctx.hintPending = true;
    $("hint-panel").open = true;
    draw();
  }
}

function rematch() { send({ type: "rematch" }); }

function onState(msg) {
  if (msg.seq < seq) return;  // an older state than the one shown: never draw it
  const turnChanged = !view || msg.seq !== seq;
  const newHand = view && msg.view.last_hand && JSON.stringify(msg.view.last_hand) !== JSON.stringify(view.last_hand);
  seq = msg.seq;
  ctx.you = msg.you;
  const before = view;
  view = msg.view;
  if (turnChanged && before) announce(news(before, view));  // a page just opened reads the table itself
  hideHandNotice(view.hand_number);  // drawn with the new hand below, in the same frame
  if (turnChanged) {
    ctx.pending = false;
    ctx.hint = null;
    ctx.hintPending = false;
    ctx.selected.clear();
  }
  if (newHand) $("scoring-panel").open = true;
  ctx.receivedAt = performance.now();
  planForced(msg);
  const latest = (msg.view.notices || []).at(-1);
  if (latest && previousNotices && !previousNotices.includes(latest)) showNotice(latest);
  previousNotices = msg.view.notices || [];
  document.body.dataset.seq = String(seq);
  render(view, ctx);
}

/** Play the seat's only legal move for it after a short pause (see FORCED_PAUSE_MS). */
function planForced(msg) {
  const legal = msg.view.legal || [];
  const only = msg.you !== null && msg.view.to_act === msg.you && !msg.view.game_over && legal.length === 1;
  if (!only) {
    ctx.forced = null;
    clearTimeout(forcedTimer);
    return;
  }
  if (ctx.forced && ctx.forced.seq === msg.seq) return;  // already planned for this state
  clearTimeout(forcedTimer);
  ctx.forced = { ...legal[0], seq: msg.seq };
  ctx.pending = true;  // no button takes a click meanwhile
  forcedTimer = setTimeout(() => {
    if (!ctx.forced || ctx.forced.seq !== seq) return;
    const move = ctx.forced;
    ctx.pending = false;
    if (!ctx.connected) { ctx.forced = null; draw(); return; }
    act(move);
    showNotice(`Your only legal move was played for you: ${move.text.replace(/^play /i, "")}`, view.hand_number);
  }, FORCED_PAUSE_MS);
}

/** The countdowns of dropped people, once a second between states (everyone sees them). */
function tickGrace() {
  const now = performance.now();
  for (const el of document.querySelectorAll("[data-grace-ends]")) {
    const left = (Number(el.dataset.graceEnds) - now) / 1000;
    const first = el.dataset.graceFirst === "1";
    el.textContent = el.dataset.graceName ? graceLine(el.dataset.graceName, left, first) : graceText(left, first);
  }
}
setInterval(tickGrace, 1000);

function onMessage(event) {
  let msg;
  try { msg = JSON.parse(event.data); } catch { return; }
  if (msg.type === "state") onState(msg);
  else if (msg.type === "error") {
    ctx.pending = false;
    ctx.hintPending = false;
    document.body.dataset.errors = String(Number(document.body.dataset.errors || 0) + 1);
    if (FATAL_CODES.has(msg.code)) { stop(refusalText(msg.code, msg.message)); return; }  // said once, in the banner
    showError(msg.message);
    draw();
  } else if (msg.type === "hint") {
    ctx.hintPending = false;
    if (msg.seq === seq) ctx.hint = msg;
    draw();
  }
}

/** A refused link in words, with what to do next. */
function refusalText(code, message) {
  if (code === "bad_token") {
    return `This seat link does not open a seat at this table (it may be mistyped or cut short). Ask the ` +
      `person who set up the table to send you your seat's link again.`;
  }
  if (code === "unknown_table" && /game is over/.test(message || "")) {
    return `This table existed, but ${message}. Start a new table from the lobby.`;
  }
  if (code === "unknown_table") {
    return `This link's table is not on this server (${message}). If someone sent you this link, ask them for ` +
      `it again: it may be mistyped or cut short, ` +
      `or their server may have been reset. Or start a table of your own from the lobby.`;
  }
  return message;
}

function stop(message) {
  stopped = true;
  clearTimeout(retryTimer);
  ctx.connected = false;
  setConn("gone", "not connected");
  const b = showBanner(`${message} `);
  b.append(h("a", { href: "/", class: "btn small" }, "Back to the lobby"));
  if (!view) {  // nothing was ever shown: the page must not go on saying it is connecting, nor show an empty table
    $("status").textContent = "This page is not connected to a table.";
    document.body.classList.add("no-table");
  }
  draw();
}

function connect() {
  clearTimeout(retryTimer);
  if (stopped) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // The seat token goes in the Sec-WebSocket-Protocol header, never in the address (addresses are logged).
  const protocols = token ? ["hucklebuck", `hucklebuck.token.${token}`] : ["hucklebuck"];
  setConn("connecting", "connecting…");
  const sock = new WebSocket(`${proto}//${location.host}/ws/tables/${encodeURIComponent(tableId)}`, protocols);
  ws = sock;
  sock.addEventListener("open", () => {
    if (ws !== sock) return;
    attempts = 0;
    ctx.connected = true;
    ctx.pending = false;
    setConn("up", token ? "connected" : "watching");
    showBanner(null);
    draw();
  });
  sock.addEventListener("message", (event) => { if (ws === sock) onMessage(event); });
  sock.addEventListener("close", (event) => { if (ws === sock) onClose(event); });
}

function onClose(event) {
  ws = null;
  ctx.connected = false;
  ctx.pending = false;
  ctx.hintPending = false;
  if (event.code === CLOSE_TAKEN_OVER) {
    stopped = true;
    setConn("gone", "seat open elsewhere");
    const b = showBanner("This seat is now open in another tab or window, so this page stopped following the table. ");
    const again = document.createElement("button");
    again.type = "button";
    again.className = "btn small";
    again.textContent = "Take the seat back here";
    again.addEventListener("click", () => { stopped = false; attempts = 0; connect(); });
    b.append(again);
    draw();
    return;
  }
  if (stopped) return;  // already stopped, its message shown once
  if (isFatalClose(event.code)) { stop(event.reason || "The server refused this link."); return; }
  const delay = Math.min(10000, 500 * 2 ** attempts) * (0.75 + Math.random() * 0.5);
  attempts += 1;
  setConn("down", "connection lost");
  const b = showBanner(`Connection to the table lost. Reconnecting in ${Math.ceil(delay / 1000)} s… `);
  const now = document.createElement("button");
  now.type = "button";
  now.className = "btn small";
  now.textContent = "Reconnect now";
  now.addEventListener("click", connect);
  b.append(now);
  retryTimer = setTimeout(connect, delay);
  draw();
}

// For people who drive the page from the browser console (and for the tests): send a raw message.
window.hucklebuckTable = { send, get seq() { return seq; } };

// Another seat link of the same table pasted into this tab changes only the fragment: load it afresh.
window.addEventListener("hashchange", () => location.reload());

if (!tableId) stop("This address names no table. Start one from the lobby.");
else if (token && !/^[A-Za-z0-9_-]+$/.test(token)) stop("That seat link is not valid for this table.");
else connect();
