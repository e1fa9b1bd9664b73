// The lobby: choose a game, its players and seats and variant rules, create the table, share the links.
import { api, h, plain } from "./common.js";

const form = document.getElementById("new-table");
const gamesBox = document.getElementById("games");
const playersSel = document.getElementById("players");
const seatsBox = document.getElementById("seats");
const optionsBox = document.getElementById("options");
const errorBox = document.getElementById("form-error");
let games = [];
let defaultNames = { human: [], computer: [] };  // the server's one rule: "Player 1" at seat 1 ...
let seatChoices = [];  // what each seat row holds, kept when the player count changes

// One limit for a name everywhere: the server's (ServerConfig.max_name) and the state schema's.
const MAX_NAME = 24;
// Player kinds for measuring the computer players, not for playing with friends.
const RESEARCH_KINDS = new Set(["mc-blind"]);

/** The name a seat gets when nobody names it (i counts from 0, as the API does). */
function defaultName(kind, i) { return (defaultNames[kind] || [])[i] || ""; }

function current() {
  const checked = form.querySelector("input[name=game]:checked");
  return games.find((g) => g.name === (checked ? checked.value : games[0].name));
}

function humanize(name) { return name.replace(/_/g, " "); }
/** A choice as the lobby shows it: the server's friendly name for it, "none" read as "not used". */
function choiceLabel(value, o = null) {
  const named = o && o.choice_labels ? o.choice_labels[value] : null;
  return named || (value === "none" ? "not used" : humanize(value));
}
function cap(text) { return text ? text[0].toUpperCase() + text.slice(1) : text; }
function title(name) { const t = humanize(name); return t[0].toUpperCase() + t.slice(1); }


function renderGames() {
  gamesBox.replaceChildren(...games.map((g, i) => {
    const p = g.players;
    return h("label", { class: "game-choice" },
      h("input", { type: "radio", name: "game", value: g.name, checked: i === 0, onchange: renderGame }),
      h("span", {}, h("span", { class: "name" }, g.title),
        h("span", { class: "sub" }, `${p.min} to ${p.max} players`)));
  }));
}

function renderGame() {
  const g = current();
  const p = g.players;
  playersSel.replaceChildren(...Array.from({ length: p.max - p.min + 1 }, (_, i) => {
    const n = p.min + i;
    return h("option", { value: n, selected: n === p.default }, `${n} players`);
  }));
  document.getElementById("players-desc").textContent = `${g.title} is played by ${p.min} to ${p.max}.`;
  document.getElementById("hands-field").classList.toggle("hidden", g.name !== "buckem");
  renderSeats();
  renderOptions(g);
}

function seatKinds(g, n) {
  // a trained policy the server offers plays one table size: listed only for that many players
  return [{ value: "human", label: "a person", desc: "gets a secret link to this seat to send them" },
    ...g.computer_players.filter((c) => !RESEARCH_KINDS.has(c.name) && (c.players == null || c.players === n))
      .map((c) => ({ value: c.name,
      label: `computer: ${c.label}`, desc: c.description }))];
}

function renderSeats() {
  const g = current();
  const n = Number(playersSel.value);
  const kinds = seatKinds(g, n);
  const defaultBot = g.computer_players.some((c) => c.name === "mc") ? "mc" : g.computer_players[0].name;
  while (seatChoices.length < n) {
    const i = seatChoices.length;
    seatChoices.push({ kind: i === 0 ? "human" : defaultBot, name: "" });
  }
  const rows = [];
  for (let i = 0; i < n; i++) {
    const choice = seatChoices[i];
    if (!kinds.some((k) => k.value === choice.kind)) choice.kind = defaultBot;
    const no = i + 1;  // seats count from 1 for people (the API counts from 0)
    const kindSel = h("select", { id: `seat-${i}-kind`, "aria-label": `Seat ${no}: who plays` },
      kinds.map((k) => h("option", { value: k.value, selected: k.value === choice.kind }, k.label)));
    const nameIn = h("input", { type: "text", id: `seat-${i}-name`, maxlength: MAX_NAME, value: choice.name,
      placeholder: i === 0 ? "your name" : defaultName("human", i), "aria-label": `Seat ${no}: name`,
      autocomplete: "off", "aria-describedby": `seat-${i}-name-note` });
    const note = h("span", { class: "name-note", id: `seat-${i}-name-note`, "aria-live": "polite" });
    kindSel.setAttribute("aria-describedby", "seat-kinds");
    const noteText = () => { note.textContent = nameIn.value.length >= MAX_NAME ? `Names stop at ${MAX_NAME} characters.` : ""; };
    const update = () => {
      nameIn.classList.toggle("hidden", choice.kind !== "human");
      note.classList.toggle("hidden", choice.kind !== "human");
    };
    update();
    noteText();
    kindSel.addEventListener("change", () => { choice.kind = kindSel.value; update(); });
    nameIn.addEventListener("input", () => { choice.name = nameIn.value; noteText(); });
    rows.push(h("div", { class: "seat-row" },
      h("span", { class: "seat-no" }, `Seat ${no}`, i === 0 ? h("span", { class: "sr-only" }, " (you)") : null),
      kindSel, nameIn, note));
  }
  const legend = h("ul", { class: "desc seat-kinds", id: "seat-kinds" },
    kinds.map((k) => h("li", {}, h("b", {}, `${k.label}: `), k.desc)));
  seatsBox.replaceChildren(h("p", { class: "desc" },
    `Seat 1 is yours. Play passes to the left: seat 2 after seat 1, and so on. ` +
    `A name may have up to ${MAX_NAME} characters; an unnamed seat is called by its number.`), ...rows, legend);
}

function optionControl(o) {
  const id = `opt-${o.name}`;
  if (o.type === "bool") return h("input", { type: "checkbox", id, name: o.name, checked: o.default === true });
  if (o.type === "choice" && Array.isArray(o.choices)) {
    return h("select", { id, name: o.name }, o.choices.map((c) => {
      const value = c === null ? "none" : String(c);
      const label = choiceLabel(value, o) + (c === o.default ? " (usual)" : "");
      return h("option", { value, selected: c === o.default }, label);
    }));
  }
  const attrs = { type: "number", id, name: o.name, step: 1, value: o.default === null ? "" : o.default };
  if (o.min !== undefined) attrs.min = o.min;
  if (o.max !== undefined) attrs.max = o.max;
  if (o.nullable) attrs.placeholder = "none";
  return h("input", attrs);
}

/** An option's text in plain words: no rule citations, no formulas, no option names in code form. */
export function words(text) {
  return plain(text)
    .replace(/,? ?1 to 2\*\*\d+(?: - 1)?/g, "")
    .replace(/floor\(pot x own tricks \/ winners' tricks\)/g, "a share of the pot in proportion to the tricks taken, rounded down,")
    .replace(/floor\(pot \/ 2\)/g, "half the pot, rounded down")
    .replace(/ceil\(pot \/ 2\)/g, "half the pot, rounded up")
    .replace(/\+5 - t\b/g, "5 minus the tricks taken")
    .replace(/\b([a-z]+(?:_[a-z]+)+) needs the short pack/g, (_, name) => `The choice “${humanize(name)}” needs “Short handed” on`)
    .replace(/\b([a-z]+(?:_[a-z]+)+)\b/g, (_, name) => `“${humanize(name)}”`)
    .replace(/\s+([.,;:])/g, "$1").replace(/\s{2,}/g, " ").trim();
}

function defaultText(o) {
  if (o.default === null) return "not used";
  if (o.default === true) return "on";
  if (o.default === false) return "off";
  return choiceLabel(String(o.default), o);
}

function optionDesc(o, control) {
  const parts = [];
  const main = words(o.description);
  if (main) parts.push(main);
  if (o.type === "choice" && o.choice_descriptions) {
    const value = control.value;
    const d = words(o.choice_descriptions[value] || "").replace(/\s*\(default\)|;?\s*default\b/g, "");
    if (d) parts.push(`${cap(choiceLabel(value, o))}: ${d}`);
  }
  parts.push(`Usual: ${defaultText(o)}.`);
  return parts.join(" ");
}

function renderOptions(g) {
  optionsBox.replaceChildren(...g.options.map((o) => {
    const control = optionControl(o);
    const desc = h("div", { class: "desc", id: `opt-${o.name}-desc` });
    const update = () => { desc.textContent = optionDesc(o, control); };
    control.setAttribute("aria-describedby", desc.id);
    control.addEventListener("change", update);
    update();
    return h("div", { class: "field" }, h("label", { for: control.id }, o.label || title(o.name)), control, desc);
  }));
  document.getElementById("options-count").textContent =
    `Show the ${g.options.length} rule variants (each at its usual setting)`;
}

function readOptions(g) {
  const out = {};
  for (const o of g.options) {
    const el = document.getElementById(`opt-${o.name}`);
    let value;
    if (o.type === "bool") value = el.checked;
    else if (o.type === "choice") {
      const raw = el.value;
      value = raw === "none" ? null : o.choices.find((c) => String(c) === raw);
    } else value = el.value.trim() === "" ? null : Number(el.value);
    if (value !== o.default) out[o.name] = value;
  }
  return out;
}

async function create(event) {
  event.preventDefault();
  errorBox.textContent = "";
  const g = current();
  const n = Number(playersSel.value);
  // A seat left unnamed gets the server's default name (the same rule the API applies).
  const seats = seatChoices.slice(0, n).map((c) => (c.kind === "human"
    ? { kind: "human", name: c.name.trim() || null }
    : { kind: "computer", player: c.kind }));
  if (!seats.some((s) => s.kind === "human")) {
    errorBox.textContent = "Choose “a person” for at least one seat (yours).";
    return;
  }
  const timer = document.getElementById("turn-timer").value;
  const firstWait = document.getElementById("first-wait").value;
  const body = { game: g.name, players: n, options: readOptions(g), seats, turn_timer: timer ? Number(timer) : null,
    first_wait: firstWait ? Number(firstWait) : null };
  body.public = document.getElementById("public").checked;
  if (g.name === "buckem") {
    const hands = document.getElementById("hands").value;
    body.hands = hands ? Number(hands) : null;
  }
  const button = document.getElementById("create");
  button.disabled = true;
  try {
    showCreated(await api("/api/tables", { method: "POST", body }));
  } catch (err) {
    errorBox.textContent = `The table was not created: ${err.message}`;
  } finally {
    button.disabled = false;
  }
}

function showCreated(table) {
  const base = location.origin;
  const mine = table.seats.find((s) => s.kind === "human");
  const items = [];
  for (const s of table.seats) {
    if (s.kind !== "human") continue;
    items.push(linkItem(`Seat ${s.seat + 1}: ${s.name}${s === mine ? " (you)" : ""}`, base + s.link));
  }
  if (table.spectator_link) items.push(linkItem("Watch link (no hand shown)", base + table.spectator_link));
  document.getElementById("links").replaceChildren(...items);
  document.getElementById("privacy").textContent = table.public
    ? "This table is open to everyone: the lobby lists it, and anyone can watch."
    : "This table is private: the lobby does not list it, so only people with one of these links can find it.";
  const go = document.getElementById("go");
  go.href = mine.link;
  go.textContent = `Take your seat (seat ${mine.seat + 1})`;
  form.classList.add("hidden");
  document.getElementById("created").classList.remove("hidden");
  document.getElementById("created-title").focus();
}

function linkItem(label, url) {
  const input = h("input", { type: "text", readonly: true, value: url, "aria-label": `${label}: link` });
  input.addEventListener("focus", () => input.select());
  const copy = h("button", { type: "button", class: "btn small" }, "Copy");
  copy.setAttribute("aria-label", `Copy the link for ${label}`);
  copy.addEventListener("click", async () => {
    input.select();
    try { await navigator.clipboard.writeText(url); copy.textContent = "Copied"; } catch {
      copy.textContent = "Select and copy";
    }
  });
  return h("li", {}, h("span", { class: "who" }, label), input, copy);
}

// The tables being played on this site (every server's, when several share one database): watch links.
async function listTables() {
  let tables;
  try { tables = (await api("/api/tables")).tables; } catch { return; }
  const open = tables.filter((t) => !t.over).slice(0, 20);
  if (!open.length) return;
  const titles = Object.fromEntries(games.map((g) => [g.name, g.title]));
  const items = open.map((t) => h("li", {},
    h("a", { href: `/t/${encodeURIComponent(t.id)}` }, `${titles[t.game] || t.game}, ${t.players} players: watch`)));
  document.getElementById("playing-list").replaceChildren(...items);
  document.getElementById("playing").classList.remove("hidden");
}

async function start() {
  try {
    const listing = await api("/api/games");
    games = listing.games;
    defaultNames = listing.default_names || defaultNames;
  } catch (err) {
    document.getElementById("loading").textContent = `Could not load the games: ${err.message}. Reload to try again.`;
    return;
  }
  renderGames();
  renderGame();
  playersSel.addEventListener("change", renderSeats);
  form.addEventListener("submit", create);
  document.getElementById("loading").remove();
  form.classList.remove("hidden");
  listTables();
}

start();
