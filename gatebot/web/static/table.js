// The table page: asks the server for the player's view, draws it with the board module, sends moves,
// and follows the game live (server-sent events), so chat, other tabs and this page stay in step.
// Every address is relative: inside Discord the page is served through Discord's proxy, under its path.
import { createBoard, fill } from "./board.js";

// The session's CSRF token: a sign-in inside Discord makes a new one.
let token = document.querySelector('meta[name="csrf-token"]').content;
// Set only when Discord opened the page as its Activity: the page then signs in through Discord's SDK.
const clientId = document.querySelector('meta[name="discord-client-id"]').content;
// The page's words in the reader's language, put in the page by the server (data, not script).
const words = JSON.parse(document.body.dataset.words);
const $ = (id) => document.getElementById(id);
const message = $("message");
let fourColour = false;
let shown = null;
let offered = null; // the board whose End offer was said: {game, version}

// What the page shows under the board (the answer, the win, the buttons), in pixels, kept free of cards.
const below = () => ["message", "won"].map((id) => $(id).offsetHeight).reduce((a, b) => a + b, 0) +
  document.querySelector(".controls").offsetHeight + document.querySelector(".foot").offsetHeight + 24;
const board = createBoard($("board"), { onMove: (move) => play(move), onSay: say, words, spare: below });

// Chat's sentences mark a move as code (`3f`): here it is shown as code, and never read as markup.
function say(text) {
  message.replaceChildren(...String(text || "").split("`").map((part, i) => {
    if (i % 2 === 0) return document.createTextNode(part);
    const code = document.createElement("code");
    code.textContent = part;
    return code;
  }));
}

async function call(path, body = {}) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": token },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  let data = {};
  try {
    data = await response.json();
  } catch {
    data = { error: words.badAnswer };
  }
  return data;
}

// Whether a view is news to the page. Answers and live events arrive by different connections and may
// cross, so a view older than the one shown (an earlier game, or an earlier version of this one) is
// never drawn over it; the same version is news only when its status changed or it brings the End offer.
function newer(view) {
  if (!view) return false;
  if (!shown) return true;
  if (view.game !== shown.game) return (view.game ?? 0) > (shown.game ?? 0);
  if (view.version !== shown.version) return (view.version ?? 0) > (shown.version ?? 0);
  return view.status !== shown.status || (view.actions.includes("end") && !shown.actions.includes("end"));
}

// What the game is called: its deal, or the challenge it is an attempt at while that is open (the deal
// stays a secret until the challenge closes, and the view doesn't carry it).
function named(view) {
  return view.label ? fill(words.challengeNamed, { name: view.label }) : fill(words.dealNamed, { deal: view.deal ?? "?" });
}

function show(data) {
  if (data.four_colour !== undefined) {
    fourColour = data.four_colour;
    $("four-colour").checked = fourColour;
  }
  if (data.view) {
    shown = data.view;
    board.set(data.view, fourColour);
    const v = data.view;
    $("title").textContent = `${v.title}${v.options.length ? ` (${v.options.join(", ")})` : ""}`;
    $("facts").textContent = fill(words.facts, { game: named(v), n: v.moves_played, score: v.score, total: v.card_count });
    const active = v.status === "active";
    for (const id of ["undo", "hint", "auto"]) $(id).disabled = !active;
    $("end").hidden = !v.actions.includes("end");
    $("won").hidden = v.status !== "won";
    if (v.status === "won") {
      $("won-facts").textContent = fill(words.wonFacts, { title: v.title, game: named(v), n: v.moves_played });
      $("replay").href = `replay/${encodeURIComponent(v.game)}`; // the game just won, step by step
    }
  }
}

async function play(move) {
  if (!shown) return;
  const data = await call("api/play", { move, version: shown.version });
  if (newer(data.view)) show(data);
  answer(data, fill(words.played, { move }));
}

// Say what an answer says; its plain "Played 3f." is left unsaid when the End offer for the very board
// it brings was said already (the offer may come by the live stream before the answer does).
// A move that leaves no move at all is said to be the end (chat's board says it on its last line).
function answer(data, otherwise) {
  const view = data.view;
  const plain = !data.error && !data.message;
  if (plain && view && offered && view.game === offered.game && view.version === offered.version) return;
  const over = view && view.status === "lost" ? words.lost : "";
  say(data.error || [data.message, over].filter(Boolean).join(" ") || otherwise);
}

async function act(name) {
  if (!shown) return;
  const data = await call(`api/${name}`, { version: shown.version });
  if (newer(data.view)) show(data);
  if (data.suggestion) board.suggest(data.suggestion);
  answer(data, name === "undo" ? words.undone : "");
}

async function deal(choice) {
  let data = await call("api/new", choice);
  if (data.kind === "confirm") {
    if (!window.confirm(data.message)) return;
    data = await call("api/new", { ...choice, confirm: true });
  }
  show(data);
  say(data.error || data.message);
}

// The table's line above the board changed: draw the board again in the room left for it.
function settle() {
  $("together").hidden = $("here").hidden && !$("challenges").childElementCount;
  if (shown) board.set(shown, fourColour);
}

// Who else in the channel has the Activity open ("Also here: Alice, Bob"): their names as text only.
function showHere(names) {
  $("here").textContent = names.length ? fill(words.alsoHere, { names: names.join(", ") }) : "";
  $("here").hidden = !names.length;
  settle();
}

// The open challenges of the server the Activity was opened in: name, game, rules and closing time (the
// server never sends a deal), each with the button that starts the player's one attempt.
async function showChallenges(guild) {
  let data = {};
  try {
    const response = await fetch(`api/activity/challenges?guild=${encodeURIComponent(guild)}`,
      { credentials: "same-origin" });
    data = await response.json();
  } catch {
    return;
  }
  $("challenges").replaceChildren(...(data.challenges || []).map((challenge) => {
    const box = document.createElement("section");
    box.className = "challenge";
    const name = document.createElement("h2");
    name.textContent = challenge.name;
    const facts = document.createElement("p");
    facts.textContent = `${challenge.title} · ${challenge.rules} · ${challenge.closes}`;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = words.playChallenge;
    button.addEventListener("click", () => playChallenge(guild, challenge.id, button));
    box.append(name, facts, button);
    return box;
  }));
  settle();
}

// Starts the attempt. With a game running the server asks first: its question is said, and the button
// becomes the yes (no dialog: Discord's frame may not show one).
async function playChallenge(guild, id, button) {
  const confirm = button.dataset.asked === "yes";
  const data = await call("api/activity/challenge", { guild, challenge: id, confirm });
  if (data.kind === "confirm") {
    button.dataset.asked = "yes";
    button.textContent = words.startAttempt;
    say(data.message);
    return;
  }
  delete button.dataset.asked;
  button.textContent = words.playChallenge;
  if (newer(data.view)) show(data);
  say(data.error || data.message);
}

async function start() {
  let signed = null;
  if (clientId) {
    // Inside Discord: the player is whoever Discord says, signed in before anything is shown.
    const activity = await import("./activity.js");
    signed = await activity.signIn(clientId, token, words);
    if (signed.error) {
      say(signed.error);
      return;
    }
    token = signed.csrf;
    activity.watchParticipants(signed.sdk, signed.id, showHere);
  }
  const response = await fetch("api/game", { credentials: "same-origin" });
  const data = await response.json();
  if (data.view) show(data);
  else await deal({});
  if (data.notice) say(data.notice); // after a sign-in by a link from chat: whose game the table shows now
  follow();
  // The server is Discord's word, used only to find its open challenge: who plays is the signed-in player.
  if (signed && signed.sdk.guildId) showChallenges(signed.sdk.guildId);
}

function follow() {
  const events = new EventSource("api/events");
  events.addEventListener("view", (event) => {
    const data = JSON.parse(event.data);
    if (newer(data.view)) show(data);
  });
  // The End-game offer, worked out after a move was answered: drawn (its End button) and said.
  events.addEventListener("offer", (event) => {
    const data = JSON.parse(event.data);
    if (!newer(data.view)) return;
    show(data);
    offered = { game: data.view.game, version: data.view.version };
    if (data.message) say(data.message);
  });
}

$("undo").addEventListener("click", () => act("undo"));
$("hint").addEventListener("click", () => act("hint"));
$("auto").addEventListener("click", () => act("auto"));
$("end").addEventListener("click", () => act("end"));
$("new").addEventListener("click", () => {
  sayOdds();
  $("deal-dialog").showModal();
});
$("again").addEventListener("click", () => deal({ variant: shown ? shown.variant : "gate", options: shown ? shown.options : [] }));
$("share").addEventListener("click", async () => {
  if (!shown) return;
  const text = fill(words.shared, { title: shown.title, game: named(shown), n: shown.moves_played });
  try {
    if (navigator.share) await navigator.share({ text });
    else {
      await navigator.clipboard.writeText(text);
      say(words.copied);
    }
  } catch {
    say(text);
  }
});
// The New deal dialog says how often a plain deal of the variant picked can be won (a figure per variant).
function sayOdds() {
  const picked = $("deal-form").elements.variant.value;
  $("deal-odds").textContent = (words.odds || {})[picked] || "";
}
$("deal-form").elements.variant.addEventListener("change", sayOdds);
$("deal-dialog").addEventListener("close", () => {
  if ($("deal-dialog").returnValue !== "deal") return;
  const form = new FormData($("deal-form"));
  const number = String(form.get("deal") || "").trim();
  const options = String(form.get("options") || "").split(/[\s,]+/).filter(Boolean);
  deal({
    variant: form.get("variant"),
    deal: number ? Number.parseInt(number, 10) : null,
    options,
    winnable: form.get("winnable") === "on",
  });
});
$("typed").addEventListener("submit", (event) => {
  event.preventDefault();
  const move = $("move").value.trim();
  if (move) play(move);
  $("move").value = "";
});
$("four-colour").addEventListener("change", async (event) => {
  const data = await call("api/preferences", { four_colour: event.target.checked });
  if (data.four_colour !== undefined) show({ four_colour: data.four_colour, view: shown });
});
$("forget").addEventListener("click", async () => {
  if (!window.confirm(words.forget)) return;
  const data = await call("api/forget");
  say(data.error || data.message);
  shown = null;
});
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "u") act("undo");
  else if (event.key === "h") act("hint");
  else if (event.key === "Escape") board.clear();
  else if (/^[0-9a-z]$/.test(event.key) && event.key !== "u" && event.key !== "h") $("move").focus();
});

start();
