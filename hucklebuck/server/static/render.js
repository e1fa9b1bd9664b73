// Drawing the table from one VIEW (the server's state for this seat). No state of its own except what
// the caller passes in ctx: {you, connected, pending, selected:Set, hint, act(move), toggle(code), askHint(), rematch()}.
import {
  cardImg, cardName, cardText, h, plain, plural, saidText, setText, spoken, suitGlyph, suitName, suitedText, swap,
} from "./common.js";

const $ = (id) => document.getElementById(id);

function seatName(view, seat) {
  const s = view.seats[seat];
  return s ? s.name : `seat ${seat + 1}`;  // the protocol counts seats from 0, people from 1
}

function trumpWords(view) {
  if (!view.trump) return null;
  return h("span", { class: "trump-badge" }, ...suitedText(`${suitGlyph(view.trump)} ${suitName(view.trump)}`));
}

export function statusText(view, you, forced = null) {
  if (view.game_over) return { text: `Game over. ${plain(view.game_over.text)}`, mine: false, over: true };
  if (view.phase === "hand_over") {
    return { text: `Hand ${view.hand_number} is over: the next one is being dealt…`, mine: false };
  }
  if (view.to_act === null || view.to_act === undefined) {
    return { text: view.phase_text ? `${cap(view.phase_text)}…` : "Dealing the next hand…", mine: false };
  }
  if (view.to_act === you && forced) {
    return { text: `Your only legal move, ${forced.text}: it is played for you.`, mine: false };
  }
  if (view.to_act === you) {
    const play = (view.legal || []).some((m) => m.kind === "play");
    return { text: play ? "Your turn: play a card (the raised cards may be played)." : `Your turn: ${view.phase_text}.`,
      mine: true };
  }
  return { text: `Waiting for ${seatName(view, view.to_act)}: ${view.phase_text}.`, mine: false };
}

function cap(text) { return text ? text[0].toUpperCase() + text.slice(1) : text; }

function scoreText(view, n) {
  return view.score_label === "chips" ? plural(n, "chip") : plural(n, "point");
}

function renderFacts(view, you) {
  const facts = [h("span", { class: "fact" }, "Dealer: ", h("b", {}, seatName(view, view.dealer)))];
  facts.push(h("span", { class: "fact" }, "Trump: ", trumpWords(view) || h("b", {}, "not yet known")));
  if (view.pot !== null && view.pot !== undefined) facts.push(h("span", { class: "fact" }, "Pot: ", h("b", {}, plural(view.pot, "chip"))));
  if (you !== null && view.seats[you]) {
    facts.push(h("span", { class: "fact" }, "You: ", h("b", {}, scoreText(view, view.seats[you].score))));
  }
  const scores = view.seats.map((s) => `${s.name} ${scoreText(view, s.score)}`).join(", ");
  facts.push(h("span", { class: "sr-only" }, `Scores: ${scores}.`));
  swap($("facts"), ...facts);
  swap($("contract"), ...(view.contract ? [h("p", { class: "contract" }, ...saidText(view.contract))] : []));
}

/** A wait in words: "45 s", "9 min 40 s", "1 h 2 min". */
export function waitText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 90) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** A person's countdown in their seat: the time until the computer plays for them. ``first``: they
 * have not opened their link yet. */
export function graceText(seconds, first = false) {
  return `${first ? "not here yet" : "not connected"} · ${waitText(seconds)}`;  // short: it sits in a seat's tag row
}

/** One line everyone sees while a person's grace period runs (the table waits for them meanwhile). */
function renderGrace(view, ctx) {
  const box = $("grace-line");
  const gone = view.seats.filter((s) => s.kind === "human" && !s.connected && typeof s.grace_left === "number");
  box.classList.toggle("hidden", !gone.length);
  // A friend who has not come yet is news, not trouble: a red banner only for a dropped connection.
  const dropped = gone.some((s) => s.opened !== false);
  box.classList.toggle("down", dropped);
  box.classList.toggle("notice", !dropped);
  swap(box, ...gone.map((s) => h("span", { dataset: { graceEnds: String(ctx.receivedAt + s.grace_left * 1000),
    graceName: s.name, graceFirst: s.opened === false ? "1" : "" } }, graceLine(s.name, s.grace_left, s.opened === false))));
}

/** The line everyone reads while a person is away: ``first``, they never opened their link. */
export function graceLine(name, seconds, first = false) {
  if (first) {
    return `${name} is not here yet (their link has not been opened): the table waits for them, then the ` +
      `computer plays for them in ${waitText(seconds)}. `;
  }
  return `${name}'s connection dropped: the table waits for them, then the computer plays for them in ` +
    `${waitText(seconds)}. `;
}

function renderSeats(view, ctx) {
  const you = ctx.you;
  const items = view.seats.map((s) => {
    const tags = [];
    if (s.seat === you) tags.push(h("span", { class: "tag" }, "you"));
    if (s.seat === view.dealer) tags.push(h("span", { class: "tag dealer" }, "dealer"));
    if (view.to_act === s.seat) tags.push(h("span", { class: "tag turn" }, "to play"));
    const first = s.kind === "human" && s.opened === false;
    const off = first ? "tag" : "tag off";  // not here yet is no trouble: only a dropped connection is red
    if (s.kind === "computer") tags.push(h("span", { class: "tag" }, s.player_text || "computer"));
    else if (s.away) tags.push(h("span", { class: off }, first ? "not here yet: computer plays" : "away: computer plays"));
    else if (!s.connected && typeof s.grace_left === "number") {
      tags.push(h("span", { class: off, dataset: { graceEnds: String(ctx.receivedAt + s.grace_left * 1000),
        graceFirst: first ? "1" : "" } }, graceText(s.grace_left, first)));
    } else if (!s.connected) tags.push(h("span", { class: off }, first ? "not here yet" : "not connected"));
    if (s.status) tags.push(h("span", { class: "tag" }, s.status));
    const backs = h("div", { class: "backs", "aria-hidden": "true" },
      Array.from({ length: Math.min(s.cards, 8) }, () => cardImg(null, { alt: "", cls: "" })));
    const label = [`Seat ${s.seat + 1}, ${s.name}`, s.seat === you ? "you" : "", s.kind === "computer" ? (s.player_text || "computer") : "",
      first ? "not here yet" : "",
      view.to_act === s.seat ? "to play" : "", `${scoreText(view, s.score)}`, plural(s.tricks, "trick"),
      `${plural(s.cards, "card")} in hand`].filter(Boolean).join(", ");
    return h("article", { class: `seat${view.to_act === s.seat ? " turn" : ""}${s.seat === you ? " me" : ""}`,
      "aria-label": label },
    h("div", { class: "name", title: s.name }, `${s.seat + 1}. ${s.name}`),
    h("div", { class: "tags" }, tags),
    h("div", { class: "nums" }, h("span", { class: "score" }, scoreText(view, s.score)),
      h("span", {}, `tricks ${s.tricks}`), h("span", {}, `cards ${s.cards}`)),
    backs);
  });
  swap($("seats"), ...items);
}

function renderTrick(view) {
  const trick = $("trick");
  trick.classList.toggle("playing", view.phase === "play");
  const caption = $("trick-caption");
  const faceup = (view.face_up || []).flatMap((g) => g.cards.map((c) => h("div", { class: "group" },
    cardImg(c, { alt: `${cap(g.label)}: ${cardName(c)}` }), h("span", { "aria-hidden": "true" }, cap(g.label)))));
  swap($("faceup"), ...faceup);
  if (view.current_trick && view.current_trick.length) {
    swap(trick, ...view.current_trick.map((p, i) => h("div", { class: "played" }, cardImg(p.card),
      h("span", { class: "who" }, seatName(view, p.seat)), i === 0 ? h("span", { class: "led" }, "led") : null)));
    const leader = view.trick_leader ?? view.current_trick[0].seat;
    const next = view.to_act !== null && view.to_act !== undefined ? ` ${seatName(view, view.to_act)} to play.` : "";
    setText(caption, `Trick in progress: ${seatName(view, leader)} led.${next}`);
  } else if (view.last_trick && ["play", "hand_over", "game_over"].includes(view.phase)) {
    // the finished trick stays until the next one starts: the hand's fifth trick too, until the next deal
    const t = view.last_trick;
    swap(trick, ...t.cards.map((p) => h("div", { class: `played${p.seat === t.winner ? " win" : ""}` },
      cardImg(p.card), h("span", { class: "who" }, seatName(view, p.seat)))));
    const w = t.cards.find((p) => p.seat === t.winner);
    setText(caption, `${seatName(view, t.winner)} won the last trick${w ? ` with ${cardText(w.card)}` : ""}.` +
      (view.to_act !== null && view.to_act !== undefined ? ` ${seatName(view, view.to_act)} leads next.` : ""));
  } else {
    swap(trick, h("p", { class: "empty" }, view.phase === "play" ? "No card played yet." : "No trick yet."));
    setText(caption, "");
  }
}

/** The legal moves sorted into what the hand shows and what the move bar shows. */
function sortMoves(view, mine) {
  const legal = mine ? view.legal || [] : [];
  const withCards = legal.filter((m) => m.cards && m.cards.length);
  const single = withCards.every((m) => m.cards.length === 1) &&
    new Set(withCards.map((m) => m.cards[0])).size === withCards.length &&
    withCards.every((m) => view.hand.includes(m.cards[0]));
  const byCard = new Map();
  if (single) for (const m of withCards) byCard.set(m.cards[0], m);
  const selectable = !single && withCards.length > 0;
  const rest = legal.filter((m) => !byCard.has(m.cards && m.cards[0]) || m.cards.length !== 1);
  return { byCard, selectable, rest, legal };
}

function moveButton(move, ctx, extra = {}) {
  const best = ctx.hint && ctx.hint.best === move.id;
  // The name a screen reader says names the cards ("order up jack of diamonds"); the eye reads "J♦".
  return h("button", { type: "button", class: `btn${best ? " best" : ""}`, dataset: { move: move.id },
    disabled: !ctx.connected || ctx.pending, onclick: () => ctx.act(move), ...extra },
  h("span", {}, ...saidText(move.text)));  // one flex item, so the name reads as one run of text
}

function renderHand(view, ctx, moves) {
  const mine = view.to_act === ctx.you && ctx.you !== null;
  const anyPlay = moves.byCard.size > 0;
  const items = view.hand.map((code) => {
    const move = moves.byCard.get(code);
    if (move) {
      const best = ctx.hint && ctx.hint.best === move.id;
      return h("button", { type: "button", class: "card-slot", "aria-label": spoken(move.text), dataset: { move: move.id },
        disabled: !ctx.connected || ctx.pending, onclick: () => ctx.act(move) },
      cardImg(code, { alt: "" }), best ? h("span", { class: "cap", "aria-hidden": "true" }, "hint") : null);
    }
    if (moves.selectable && moves.legal.some((m) => m.cards.includes(code))) {
      const pressed = ctx.selected.has(code);
      return h("button", { type: "button", class: "card-slot", "aria-pressed": pressed ? "true" : "false",
        "aria-label": `select ${cardName(code)}`, dataset: { card: code }, onclick: () => ctx.toggle(code) },
      cardImg(code, { alt: "" }));
    }
    const dim = mine && anyPlay;
    return h("div", { class: `card-slot${dim ? " dim" : ""}` },
      cardImg(code, { alt: dim ? `${cardName(code)} (cannot be played now)` : cardName(code) }));
  });
  if (!view.hand.length) {
    items.push(h("p", { class: "waiting" }, ctx.you === null ? "You are watching: no hand is shown." : "No cards in hand."));
  }
  swap($("hand"), ...items);
  setText($("hand-title"), ctx.you === null ? "Watching" : `Your hand (${view.seats[ctx.you].name})`);
}

function cardsLabel(kind, n) { return `${kind} ${plural(n, "card")}`; }

/** Several-card choices with the lowest cards of the hand first (the hand is sorted high to low). */
function lowCardsFirst(view) {
  const key = (m) => m.cards.map((c) => view.hand.indexOf(c)).sort((x, y) => y - x);
  return (a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) if (ka[i] !== kb[i]) return kb[i] - ka[i];
    return ka.length - kb.length;
  };
}

function renderMoves(view, ctx, moves) {
  const out = [];
  const groups = new Map();
  for (const m of moves.rest) {
    const n = m.cards ? m.cards.length : 0;
    const key = n >= 2 ? `${m.kind}:${n}` : m.kind;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(m);
  }
  const plain = [];
  for (const [key, list] of groups) {
    const n = list[0].cards ? list[0].cards.length : 0;
    if (n >= 2 || list.length > 8) {
      if (n >= 2) list.sort(lowCardsFirst(view));
      const open = ctx.openGroups.has(key);
      const det = h("details", { dataset: { group: key }, open },
        h("summary", {}, `${n >= 2 ? cardsLabel(list[0].kind, n) : list[0].kind}: ${plural(list.length, "choice")}`),
        h("div", { class: "group" }, list.map((m) => moveButton(m, ctx))));
      det.addEventListener("toggle", () => (det.open ? ctx.openGroups.add(key) : ctx.openGroups.delete(key)));
      out.push(det);
    } else plain.push(...list.map((m) => moveButton(m, ctx)));
  }
  if (moves.selectable) {
    const sel = [...ctx.selected].sort().join(" ");
    const match = moves.legal.find((m) => m.cards.length && [...m.cards].sort().join(" ") === sel);
    out.unshift(h("p", { class: "waiting" }, "Choose with the list below, or pick cards in your hand and confirm."));
    plain.push(h("button", { type: "button", class: "btn primary", disabled: !match || !ctx.connected || ctx.pending,
      dataset: { confirm: match ? match.id : "" }, onclick: () => match && ctx.act(match) },
    h("span", {}, ...(match ? saidText(`Confirm: ${match.text}`) : ["Confirm the picked cards"]))));
  }
  if (moves.legal.length) {
    plain.push(h("button", { type: "button", class: "btn small", onclick: ctx.askHint,
      disabled: !ctx.connected || ctx.hintPending }, ctx.hintPending ? "Thinking…" : "Hint"));
  }
  if (view.game_over && ctx.you !== null) {
    plain.push(h("button", { type: "button", class: "btn primary", onclick: ctx.rematch, disabled: !ctx.connected },
      "Play again (same seats)"));
  }
  if (plain.length) out.unshift(h("div", { class: "group" }, plain));
  swap($("moves"), ...out);
}

// One minus sign everywhere, the plain "-" the rules' texts and the terminal use (not also "−").
function signed(d) { return d > 0 ? `+${d}` : d < 0 ? `-${-d}` : "0"; }

/** While the next hand is being bid or declared, one line up top says how the last hand scored. */
function renderLastHandLine(view) {
  const box = $("last-hand-line");
  const last = view.last_hand;
  const show = last && !view.game_over && view.phase !== "play";
  box.classList.toggle("hidden", !show);
  if (!show) return;
  const parts = last.lines.filter((l) => typeof l.delta === "number" && l.seat !== null && l.seat !== undefined)
    .map((l) => `${seatName(view, l.seat)} ${signed(l.delta)}`);
  swap(box, `Hand ${last.hand_number} scored: ${parts.join(" · ") || "no change"}. `,
    h("a", { href: "#scoring-panel" }, "See why"));
}

function renderScoring(view) {
  const last = view.last_hand;
  $("scoring-panel").classList.toggle("hidden", !last);
  if (!last) return;
  setText($("scoring-title"), `Hand ${last.hand_number}: scoring`);
  const unit = view.score_label === "chips" ? "Chips" : "Points";
  const rows = last.lines.map((line) => {
    const d = line.delta;
    const good = view.game === "deerpark" ? -d : d;  // in Deer Park Euchre a lower score is better
    const cls = typeof d === "number" ? (good < 0 ? " neg" : good > 0 ? " pos" : "") : "";
    const who = line.seat === null || line.seat === undefined ? "" : seatName(view, line.seat);
    return h("tr", {}, h("td", {}, who),
      h("td", { class: `delta${cls}` }, typeof d === "number" ? signed(d) : ""),
      h("td", {}, ...saidText(plain(line.text))));
  });
  const standings = view.seats.map((s) => `${s.name} ${s.score}`).join(" · ");
  swap($("scoring"), h("table", { class: "scoring" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, unit),
      h("th", { scope: "col" }, "Why"))), h("tbody", {}, rows)),
  h("p", {}, `Totals now: ${standings}`));
}

function renderHint(ctx) {
  const box = $("hint");
  const hint = ctx.hint;
  if (!hint) { swap(box, h("p", {}, "Ask for a hint when it is your turn.")); return; }
  const sorted = [...hint.moves].sort((a, b) => b.value - a.value);
  swap(box, h("p", {}, ...suitedText(hint.why || "")),
    h("ol", { class: "hint-list" }, sorted.map((m) => h("li", { class: m.id === hint.best ? "best" : "" },
      ...saidText(`${m.text}: ${m.value_text}`), m.id === hint.best ? " (best)" : ""))),
    hint.samples ? h("p", { class: "waiting" }, `From ${hint.samples} sampled deals of the unseen cards.`) : null);
}

/** Where the keyboard's focus is among the parts a render replaces, as a key to find it again. */
function focusKey() {
  const el = document.activeElement;
  if (!el || el === document.body) return { lost: true };
  if (!el.closest("#hand, #moves")) return null;  // elsewhere (a panel, the header): never moved
  const d = el.dataset;
  if (d.move) return { sel: `[data-move="${CSS.escape(d.move)}"]` };
  if (d.card) return { sel: `[data-card="${CSS.escape(d.card)}"]` };
  if (d.confirm) return { sel: "[data-confirm]" };
  const group = el.closest("details[data-group]");
  if (group && el.tagName === "SUMMARY") return { sel: `details[data-group="${CSS.escape(group.dataset.group)}"] > summary` };
  return { lost: true, text: el.textContent };
}

/** Put the focus back where it was, or, when its button went with the last move, on the first move
 * offered (so a keyboard never has to start again from the top of the page), else on the status. */
function restoreFocus(key, mine) {
  if (!key) return;
  if (document.activeElement && document.activeElement !== document.body) return;
  const same = key.sel ? document.querySelector(key.sel) : null;
  if (same && !same.disabled && same.offsetParent !== null) { same.focus(); return; }
  const first = mine ? document.querySelector("#hand [data-move]:not([disabled]), #moves [data-move]:not([disabled]), " +
    "#hand [data-card], #moves summary") : null;
  if (first) first.focus();
  else if (!key.lost || key.sel) $("status").focus();
}

/** One of the body's data attributes, written only when it changes. */
function setData(key, value) {
  if (document.body.dataset[key] !== value) document.body.dataset[key] = value;
}

/** Draw the table from ``view``. Each part is rebuilt in memory and only what differs from the page
 * is replaced (see swap): an unchanged part keeps its nodes, its focus and its place for a screen reader. */
export function render(view, ctx) {
  const key = focusKey();
  let st = statusText(view, ctx.you, ctx.forced);
  if (st.mine && !ctx.connected) {
    st = { text: `${st.text} (Not connected: you can move once the page is connected again.)`, mine: false };
  }
  setText($("title"), view.title);
  const title = `${st.mine ? "▶ Your turn · " : ""}${view.title} · hucklebuck`;
  if (document.title !== title) document.title = title;
  // The hand's own parts (its number, dealer, trump, status, the felt) are all drawn from this one view,
  // in this one call: the body's data-hand says which hand the page shows.
  setText($("hand-no"), `Hand ${view.hand_number}`);
  setData("hand", String(view.hand_number));
  const status = $("status");
  setText(status, st.text);
  status.classList.toggle("you", st.mine);
  status.classList.toggle("over", Boolean(st.over));
  renderFacts(view, ctx.you);
  renderLastHandLine(view);
  renderSeats(view, ctx);
  renderGrace(view, ctx);
  renderTrick(view);
  const mine = ctx.you !== null && view.to_act === ctx.you;
  const moves = sortMoves(view, mine);
  renderHand(view, ctx, moves);
  renderMoves(view, ctx, moves);
  renderScoring(view);
  renderHint(ctx);
  swap($("log"), ...(view.log || []).map((line) => h("li", {}, ...saidText(plain(line)))));
  const notices = view.notices || [];
  swap($("notices"), ...notices.map((n) => h("li", {}, n)));
  $("notices-panel").classList.toggle("hidden", !notices.length);
  setData("turn", mine ? "you" : view.to_act === null || view.to_act === undefined ? "none" : "other");
  restoreFocus(key, mine && ctx.connected && !ctx.pending);
  setData("over", view.game_over ? "1" : "");
}
