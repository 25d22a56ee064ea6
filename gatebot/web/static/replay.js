// The replay viewer: a finished game's frames (each the player's view of one position, as the server
// sends them) drawn one at a time by the board module in read-only mode. Step back and forward, play and
// pause, scrub with the slider; keys: ← → step, Space plays or pauses, Home and End go to either end.
import { createBoard } from "./board.js";

const $ = (id) => document.getElementById(id);
const root = $("replay");
const labels = { play: root.dataset.play, pause: root.dataset.pause };
// How long each step is shown while playing (ms): the animation's pace.
const STEP_MS = 450;
const board = createBoard($("board"), { readOnly: true, words: JSON.parse(document.body.dataset.words), spare: () => 140 });
let replay = null;
let views = [];
let at = 0;
let timer = null;

function show(index) {
  if (!views.length) return;
  at = Math.max(0, Math.min(index, views.length - 1));
  board.set(views[at], false);
  $("scrub").value = String(at);
  $("scrub").setAttribute("aria-valuetext", views[at].line);
  $("step").textContent = views[at].line;
  $("first").disabled = $("back").disabled = at === 0;
  $("next").disabled = $("last").disabled = at === views.length - 1;
  if (at === views.length - 1) pause();
}

function playing() {
  return timer !== null;
}

function pause() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  $("step").setAttribute("aria-live", "polite");
  $("play").textContent = labels.play;
  $("play").setAttribute("aria-pressed", "false");
}

function play() {
  if (playing() || !views.length) return;
  if (at === views.length - 1) show(0);
  $("step").setAttribute("aria-live", "off"); // a screen reader is not read every step while it plays
  timer = setInterval(() => show(at + 1), STEP_MS);
  $("play").textContent = labels.pause;
  $("play").setAttribute("aria-pressed", "true");
}

const toggle = () => (playing() ? pause() : play());
const step = (by) => {
  pause();
  show(at + by);
};

async function start() {
  const response = await fetch(`../api/replay/${root.dataset.game}`, { credentials: "same-origin" });
  const data = await response.json();
  if (!response.ok) {
    $("step").textContent = data.error;
    return;
  }
  replay = data;
  // Each frame is drawn as a view: the layout it carries or the last one given, and no legal move.
  let layout = null;
  views = data.frames.map((frame) => {
    layout = frame.layout || layout;
    return { ...frame, layout, legal: [], actions: [], version: frame.step, status: data.status,
             variant: data.variant, title: data.title, card_count: data.card_count };
  });
  $("scrub").max = String(views.length - 1);
  show(0);
}

$("first").addEventListener("click", () => step(-Infinity));
$("back").addEventListener("click", () => step(-1));
$("play").addEventListener("click", toggle);
$("next").addEventListener("click", () => step(1));
$("last").addEventListener("click", () => step(Infinity));
$("scrub").addEventListener("input", (event) => {
  pause();
  show(Number(event.target.value));
});
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || !replay) return;
  // The slider steps by itself with the arrow keys, Home and End; a focused button takes Space itself.
  const onSlider = event.target === $("scrub");
  const onButton = event.target instanceof HTMLButtonElement;
  if (event.key === " " && !onButton) {
    event.preventDefault();
    toggle();
  } else if (!onSlider && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
    event.preventDefault();
    step(event.key === "ArrowLeft" ? -1 : 1);
  } else if (!onSlider && (event.key === "Home" || event.key === "End")) {
    event.preventDefault();
    step(event.key === "Home" ? -Infinity : Infinity);
  }
});

start();
