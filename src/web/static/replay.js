// The replay controls shared by the game pages: the « ‹ › » buttons and
// the arrow, Home and End keys step through a finished game's positions,
// which the server gives at GET {api}/{id}/replay. The page keeps the
// positions and the index shown, and draws them itself: this module only
// fetches, clamps the index asked for and paints the bar.

import { request } from './api.js';

const $ = (id) => document.getElementById(id);

// A finished game's positions, or null when the server has none to give
// (an older server, a game it no longer holds).
async function fetchPositions(api, id) {
  try {
    const answer = await request('GET', `${api}/${encodeURIComponent(id)}/replay`);
    return Array.isArray(answer.positions) && answer.positions.length ? answer.positions : null;
  } catch (e) {
    return null;
  }
}

// Fetches the replay of the game `key` names ({id} and the fields that
// mark its version) and hands `take` {...key, positions}, or null when
// the server has none; nothing when `now()`, the game the page holds, is
// by then another game or version.
export async function loadReplay(api, key, now, take) {
  const positions = await fetchPositions(api, key.id);
  const s = now();
  if (s && Object.keys(key).every((k) => s[k] === key[k])) take(positions && { ...key, positions });
}

// As loadReplay, for a page that shows a replay first at its end:
// `keep(replay, last)` gets the replay and the index of its last position,
// or (null, null) when the server has none; `redraw()` follows a replay.
export function loadReplayAtEnd(api, key, now, keep, redraw) {
  loadReplay(api, key, now, (got) => {
    keep(got, got ? got.positions.length - 1 : null);
    if (got) redraw();
  });
}

// The replay position shown, or null when it is the game's last (or
// there is no replay): the page then draws the game as it is.
export function shownPosition(replay, shown) {
  if (!replay || shown === null || shown >= replay.positions.length - 1) return null;
  return replay.positions[shown];
}

// Where a replay stands, {at, last}, or null while there is none; `shown`
// null means the last position.
export function standing(replay, shown) {
  if (!replay) return null;
  const last = replay.positions.length - 1;
  return { at: shown ?? last, last };
}

// Fills the page's empty bar, `<div id="replay-bar" data-unit="move">`,
// with its buttons; the unit names a step (a move, a strike).
function buildBar() {
  const bar = $('replay-bar');
  const unit = bar.dataset.unit;
  bar.innerHTML = `
    <button id="rp-first" title="The start (Home, ↑)" aria-label="first">«</button>
    <button id="rp-prev" title="Back a ${unit} (←)" aria-label="previous">‹</button>
    <span class="rp-where" id="rp-where"></span>
    <button id="rp-next" title="On a ${unit} (→)" aria-label="next">›</button>
    <button id="rp-last" title="The end (End, ↓)" aria-label="last">»</button>`;
}

// Hides the bar when there is nothing to replay, else says where the
// replay stands (`move 3 of 40`) and disables the buttons that lead nowhere.
// `where` is {at, last} or null, as for `wireReplay`.
export function paintReplayBar(where) {
  const bar = $('replay-bar');
  bar.hidden = !where;
  if (!where) return;
  const { at, last } = where;
  $('rp-where').textContent = `${bar.dataset.unit} ${at} of ${last}`;
  $('rp-first').disabled = $('rp-prev').disabled = at <= 0;
  $('rp-next').disabled = $('rp-last').disabled = at >= last;
}

// Builds the bar and wires its buttons and the keys, once. `where()` gives the index shown and the
// last index ({at, last}), or null while there is no replay; `show(index)`
// draws position `index`, which is always within 0..last. Returns the
// stepping function, for the page's own ways in (a click on a move).
export function wireReplay(where, show) {
  const go = (index) => {
    const w = where();
    if (w) show(Math.max(0, Math.min(w.last, index)));
  };
  const at = () => where()?.at ?? 0;
  buildBar();
  $('rp-first').addEventListener('click', () => go(0));
  $('rp-prev').addEventListener('click', () => go(at() - 1));
  $('rp-next').addEventListener('click', () => go(at() + 1));
  $('rp-last').addEventListener('click', () => go(Infinity));
  document.addEventListener('keydown', (e) => {
    if (!where() || e.altKey || e.ctrlKey || e.metaKey) return;
    // Keys typed into a field or a dialog are theirs, not the replay's.
    if (e.target.closest && e.target.closest('input, select, textarea, dialog[open]')) return;
    const moves = {
      ArrowLeft: at() - 1, ArrowRight: at() + 1, ArrowUp: 0, Home: 0, ArrowDown: Infinity, End: Infinity,
    };
    if (!(e.key in moves)) return;
    e.preventDefault();
    go(moves[e.key]);
  });
  return go;
}
