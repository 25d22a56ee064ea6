// The board: draws a player's view (what the server says they may see) and hands moves back in notation.
// Like chessground: it keeps no game state of its own beyond what it was last given (set(view)),
// places every card with a CSS transform (so a move animates by changing one value), and reports
// moves through a callback; the caller talks to the server. With `readOnly` (the replay viewer) it only
// draws: cards and places are named pictures, not buttons, and nothing can be picked up.

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANKS = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
// Below this board width the narrow arrangement is used, when the view has one (a phone held upright).
const NARROW_BELOW = 640;
// The widest a card's cell grows (px): a board of few piles (Canfield's six) stays card-sized and centred.
const MAX_CELL = 118;
// Below this window height (Discord's picture-in-picture, a phone on its side) the cell is bounded by the
// height too, so the whole board shows; the narrowest it gets (px).
const SHORT_BELOW = 480;
const MIN_CELL = 16;

// A sentence of the page's words (in the reader's language, from the server) with its {places} filled;
// one that counts ({one, other}) is chosen by `n`.
export function fill(sentence, values = {}) {
  const text = typeof sentence === "string" ? sentence : (values.n === 1 ? sentence.one : sentence.other);
  return text.replace(/\{(\w+)\}/g, (place, name) => (name in values ? String(values[name]) : place));
}

// The spoken names of cards and piles, in the words given: "7 of hearts", "column 3".
export function namer(words) {
  const rank = (letter) => words.ranks[letter] ?? RANKS[letter] ?? letter;
  return {
    card(card) {
      return fill(words.card, { rank: rank(card[0]), suit: words.suits[card[1]] });
    },
    pile(pile) {
      if (pile.kind === "column") return fill(words.column, { column: pile.key });
      if (pile.kind === "foundation") return fill(words.foundation, { suit: words.suits[pile.suit.toUpperCase()] });
      if (pile.kind === "packet") return fill(words.packet, { rank: rank(pile.key[1].toUpperCase()) });
      if (pile.kind === "reserve") return words.reserve;
      return words[pile.key] ?? pile.kind;
    },
  };
}

// `spare()` says how many pixels the page needs below the board (its buttons), so long fans squeeze to fit.
// `words` are the page's words in the reader's language (the server's `data-words`).
export function createBoard(element, { onMove = () => {}, onSay = () => {}, words, spare = () => 230, readOnly = false }) {
  const names = namer(words);
  const cardName = names.card, pileName = names.pile;
  let view = null;
  let chosen = null; // {pile, card}
  const cards = new Map(); // card id -> element
  let lastTap = { id: null, at: 0 };

  function arrangement() {
    const layout = view.layout;
    return layout.narrow && element.clientWidth < NARROW_BELOW ? layout.narrow : layout.wide;
  }

  function movesFrom(pileKey, card) {
    return view.legal.filter((m) => m.from === pileKey && (card === undefined || m.card === card));
  }

  function choose(pile, card) {
    const moves = movesFrom(pile.key, card);
    if (!moves.length) {
      onSay(fill(words.noMove, { card: cardName(card) }));
      clear();
      return;
    }
    chosen = { pile: pile.key, card };
    draw();
    const targets = moves.map((m) => m.to).filter(Boolean);
    onSay(fill(words.pickedUp, { card: cardName(card), n: targets.length }));
  }

  function clear() {
    chosen = null;
    draw();
  }

  function place(pile) {
    if (!chosen) return false;
    const move = movesFrom(chosen.pile, chosen.card).find((m) => m.to === pile.key);
    chosen = null;
    if (move) onMove(move.move);
    else draw();
    return Boolean(move);
  }

  function home(pile, card) {
    const up = movesFrom(pile.key, card).find((m) => {
      const target = view.piles.find((p) => p.key === m.to);
      return target && target.kind === "foundation";
    });
    if (up) {
      chosen = null;
      onMove(up.move);
    }
    return Boolean(up);
  }

  function tapCard(pile, card, index) {
    const id = `${pile.key}:${index}`;
    const now = Date.now();
    const double = lastTap.id === id && now - lastTap.at < 350;
    lastTap = { id, at: now };
    if (double && home(pile, card)) return;
    if (chosen && chosen.pile !== pile.key && place(pile)) return;
    if (chosen && chosen.pile === pile.key && chosen.card === card) return clear();
    choose(pile, card);
  }

  function tapPile(pile) {
    if (pile.kind === "stock") {
      const draw = view.legal.find((m) => m.from === "s");
      if (draw) onMove(draw.move);
      else onSay(words.noDraw);
      return;
    }
    if (!place(pile)) clear();
  }

  // Drag and drop: touch and mouse alike (pointer events). A press that moves a few pixels lifts the
  // card and the cards on it; letting go over a pile plays the move that goes there, if one does.
  let dragged = false;

  function press(event, pile, card, index) {
    if (event.button !== 0 || !movesFrom(pile.key, card).length) return;
    const lifted = [...element.querySelectorAll(".card")].filter(
      (el) => el.dataset.pile === pile.key && Number(el.dataset.index) >= index);
    const start = { x: event.clientX, y: event.clientY };
    const origins = lifted.map((el) => el.style.transform);
    let moving = false;
    const target = event.currentTarget;
    target.setPointerCapture(event.pointerId);

    function move(e) {
      const dx = e.clientX - start.x, dy = e.clientY - start.y;
      if (!moving && Math.hypot(dx, dy) < 6) return;
      if (!moving) {
        moving = true;
        chosen = { pile: pile.key, card };
        draw();
      }
      lifted.forEach((el, k) => {
        el.classList.add("dragging");
        el.style.transform = `${origins[k]} translate(${dx}px, ${dy}px)`;
      });
    }

    function up(e) {
      target.removeEventListener("pointermove", move);
      target.removeEventListener("pointerup", up);
      target.removeEventListener("pointercancel", up);
      lifted.forEach((el) => el.classList.remove("dragging"));
      if (!moving) return;
      dragged = true;
      setTimeout(() => { dragged = false; }, 0);
      lifted.forEach((el) => { el.hidden = true; });
      const under = document.elementFromPoint(e.clientX, e.clientY);
      lifted.forEach((el) => { el.hidden = false; });
      const over = under && under.closest("[data-pile]");
      const overPile = over && view.piles.find((p) => p.key === over.dataset.pile);
      if (!overPile || e.type === "pointercancel" || !place(overPile)) clear();
    }

    target.addEventListener("pointermove", move);
    target.addEventListener("pointerup", up);
    target.addEventListener("pointercancel", up);
  }

  // A card or a place: a button on the table, a named picture on a read-only board.
  function control() {
    if (!readOnly) {
      const b = document.createElement("button");
      b.type = "button";
      return b;
    }
    const picture = document.createElement("div");
    picture.setAttribute("role", "img");
    return picture;
  }

  function button(className, label, onClick) {
    const b = control();
    b.className = className;
    b.setAttribute("aria-label", label);
    if (!readOnly) b.addEventListener("click", onClick);
    return b;
  }

  function draw() {
    if (!view) return;
    const arr = arrangement();
    const pad = 3;
    let cell = Math.min(MAX_CELL, (element.clientWidth - 2 * pad) / arr.width);
    if (window.innerHeight < SHORT_BELOW) {
      // Rows of cards (a card is about 1.37 cells tall with its gap) and the longest fan's index rows, within the height.
      const rows = Math.max(...Object.values(arr.spots).map((spot) => spot[1])) + 1;
      const fanned = view.piles.filter((pile) => arr.spots[pile.key]?.[2] === "down").map((pile) => pile.cards.length - 1);
      const height = window.innerHeight - element.getBoundingClientRect().top - spare() - 2 * pad;
      cell = Math.max(MIN_CELL, Math.min(cell, (height - 13 * Math.max(0, ...fanned)) / (rows * 1.37)));
    }
    const left = Math.max(pad, (element.clientWidth - arr.width * cell) / 2);
    const gap = Math.max(2, cell * 0.08);
    const w = cell - gap, h = w * 1.4;
    const spotOf = (key) => arr.spots[key];
    const targets = new Set(chosen ? movesFrom(chosen.pile, chosen.card).map((m) => m.to) : []);
    const keep = new Set();
    let bottom = 0;
    // Squeeze long fans so the board stays within the screen's height.
    const room = Math.max(h * 3, window.innerHeight - element.getBoundingClientRect().top - spare());
    // A fanned card shows at least its index (rank and suit), however long the fan.
    const index = Math.max(11, w * 0.26), least = Math.max(h * 0.12, index * 1.1 + h * 0.03);
    // Every pile's place is drawn anew (a stock or a reserve with cards under it is drawn as a card's back).
    element.querySelectorAll("[data-place], .count").forEach((n) => n.remove());
    element.classList.toggle("four", Boolean(view.fourColour));
    for (const pile of view.piles) {
      const [sx, sy, fan] = spotOf(pile.key);
      const x0 = left + sx * cell, y0 = pad + sy * (h + gap);
      const n = pile.cards.length;
      let step = 0;
      if (fan === "down" && n > 1) step = Math.max(least, Math.min(h * 0.27, (room - y0 - h) / (n - 1)));
      if (fan === "right" && n > 1) step = Math.min(w * 0.55, (left + arr.width * cell - x0 - w) / (n - 1));
      const slot = button(`slot${pile.kind === "gatepost" ? " post" : ""}${targets.has(pile.key) ? " lit" : ""}`,
        pile.cards.length ? pileName(pile) : fill(words.empty, { pile: pileName(pile) }), () => tapPile(pile));
      slot.dataset.pile = pile.key;
      slot.dataset.place = "";
      slot.style.width = `${w}px`;
      slot.style.height = `${h}px`;
      slot.style.transform = `translate(${x0}px, ${y0}px)`;
      if (pile.kind === "foundation") {
        slot.textContent = SUITS[pile.suit.toUpperCase()];
        slot.style.fontSize = `${Math.max(14, w * 0.36)}px`;
      }
      if (pile.kind === "stock") {
        slot.className = "card back";
        slot.setAttribute("aria-label", fill(readOnly ? words.stockCount : words.stock, { n: pile.hidden || 0 }));
        if (!pile.hidden) slot.className = "slot";
      }
      element.append(slot);
      if (pile.hidden && pile.kind !== "stock") {
        slot.className = "card back";
        slot.setAttribute("aria-label", fill(words.faceDown, { pile: pileName(pile), n: pile.hidden }));
      }
      const counted = (pile.hidden || 0) + (pile.under || 0);
      if (counted) {
        const count = document.createElement("span");
        count.className = "count";
        count.textContent = pile.kind === "stock" ? `${pile.hidden}` : `+${counted}`;
        count.style.transform = `translate(${x0 + 2}px, ${y0 + h - 18}px)`;
        element.append(count);
      }
      pile.cards.forEach((card, i) => {
        const key = cardKey(card, pile, i);
        let el = cards.get(key);
        if (!el) {
          el = control();
          el.className = "card";
          const ix = document.createElement("span");
          ix.className = "ix";
          const pip = document.createElement("span");
          pip.className = "pip";
          el.append(ix, pip);
          if (!readOnly) {
            el.addEventListener("click", () => {
              if (dragged) dragged = false;
              else el._tap();
            });
            el.addEventListener("pointerdown", (event) => el._press(event));
          }
          cards.set(key, el);
          element.append(el);
        }
        keep.add(key);
        const top = i === pile.cards.length - 1;
        el._tap = () => tapCard(pile, card, i);
        el._press = (event) => press(event, pile, card, i);
        el.dataset.pile = pile.key;
        el.dataset.index = String(i);
        el.dataset.card = card;
        el.className = `card ${card[1].toLowerCase()}${"DH".includes(card[1]) ? " red" : ""}` +
          `${chosen && chosen.pile === pile.key && chosen.card === card ? " chosen" : ""}` +
          `${targets.has(pile.key) && top ? " lit" : ""}`;
        el.firstChild.textContent = `${RANKS[card[0]] ?? card[0]}${SUITS[card[1]]}`;
        el.lastChild.textContent = SUITS[card[1]];
        el.firstChild.style.fontSize = `${index}px`;
        el.lastChild.style.fontSize = `${Math.max(12, w * 0.42)}px`;
        el.setAttribute("aria-label", fill(top ? words.onTop : words.onPile, { card: cardName(card), pile: pileName(pile) }));
        el.style.width = `${w}px`;
        el.style.height = `${h}px`;
        const x = fan === "right" ? x0 + i * step : x0, y = fan === "down" ? y0 + i * step : y0;
        el.style.transform = `translate(${x}px, ${y}px)`;
        el.style.zIndex = String(10 + i);
        bottom = Math.max(bottom, y + h);
      });
      bottom = Math.max(bottom, y0 + h);
    }
    for (const [key, el] of cards) {
      if (!keep.has(key)) {
        el.remove();
        cards.delete(key);
      }
    }
    element.style.height = `${bottom + pad}px`;
    element.dataset.version = String(view.version);
    element.dataset.status = view.status;
  }

  // A card is the same element while it keeps its name and its place from the top of its pile's kind,
  // so it glides from pile to pile; duplicates (Archway's two decks) are told apart by their index.
  function cardKey(card, pile, index) {
    const same = pile.cards.slice(0, index).filter((c) => c === card).length;
    return `${card}#${same}#${pile.kind === "packet" ? pile.key : ""}`;
  }

  // Arrow keys walk the table: left and right from pile to pile (its top card), up and down within a pile;
  // Enter or Space on a card picks it up, and on another pile puts it there.
  element.addEventListener("keydown", (event) => {
    if (readOnly) return;
    const arrows = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };
    if (!(event.key in arrows) || !view) return;
    const here = document.activeElement && document.activeElement.closest("[data-pile]");
    if (!here) return;
    event.preventDefault();
    const step = arrows[event.key];
    const inPile = (key) => [...element.querySelectorAll("[data-pile]")]
      .filter((el) => el.dataset.pile === key)
      .sort((a, b) => Number(a.dataset.index ?? -1) - Number(b.dataset.index ?? -1));
    if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      const own = inPile(here.dataset.pile);
      const next = own[own.indexOf(here) + step];
      if (next) next.focus();
      return;
    }
    const keys = view.piles.map((p) => p.key);
    const next = keys[(keys.indexOf(here.dataset.pile) + step + keys.length) % keys.length];
    const els = inPile(next);
    if (els.length) els[els.length - 1].focus();
  });

  window.addEventListener("resize", () => draw());
  return {
    set(next, fourColour) {
      view = { ...next, fourColour };
      if (chosen && !movesFrom(chosen.pile, chosen.card).length) chosen = null;
      draw();
    },
    clear,
    // Show a suggested move (a hint) as if its card were picked up: its card chosen, its targets lit.
    suggest(move) {
      const found = view && view.legal.find((m) => m.move === move);
      if (found && found.card) {
        chosen = { pile: found.from, card: found.card };
        draw();
      }
    },
    get view() { return view; },
  };
}
