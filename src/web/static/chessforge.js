// The ChessForge page: draws the game the server holds (?game=ID) as
// tiles coloured by hits left, marks the strikes the server says are
// legal, strikes by click, and shows the solver's hint on request. Which
// tiles may be struck, what a strike does and the score all come from
// the server.

import { request, keepInAddress, gameInAddress } from './api.js';
import { pieceSvg } from './pieces.js';
import { loadReplayAtEnd, paintReplayBar, shownPosition, standing, wireReplay } from './replay.js';

const $ = (id) => document.getElementById(id);
const API = '/api/chessforge/games';

let state = null;
let busy = false;
const tiles = new Map();   // square name -> element
let replay = null;         // a finished game's boards: {id, strikes, positions}
let shown = null;          // the index of the replayed board shown

// The replayed board shown, when it is not the game's last.
const viewing = () => shownPosition(replay, shown);

const INK = '#1f1c18';

function text(glyph, size = 72, y = 74) {
  return `<text x="50" y="${y}" text-anchor="middle" font-family="DejaVu Sans, Noto Sans, sans-serif"
    font-weight="800" font-size="${size}" fill="#fbfaf7" stroke="${INK}" stroke-width="4"
    paint-order="stroke">${glyph}</text>`;
}

// A tile's symbol as SVG on a 100 x 100 grid, from its letter.
function symbolSvg(letter) {
  let body;
  switch (letter) {
    case '1': case '2': case '3': case '4':
      body = text(letter, 78, 78);
      break;
    case 'N': case 'B': case 'R': case 'Q':
      return pieceSvg(letter);
    case 'W':
      body = `<path d="M50 8 60 36 90 30 68 52 88 76 58 68 50 94 42 68 12 76 32 52 10 30 40 36z"
        fill="#fbfaf7" stroke="${INK}" stroke-width="4" stroke-linejoin="round"/>
        <circle cx="50" cy="52" r="9" fill="${INK}"/>`;
      break;
    case 'L':
      body = text('λ', 80, 76);
      break;
    case 'S':
      body = `<g fill="#fbfaf7" stroke="${INK}" stroke-width="4">
        <circle cx="50" cy="30" r="17"/><circle cx="30" cy="55" r="17"/><circle cx="70" cy="55" r="17"/>
        <path d="M50 56c2 14 8 24 16 32" fill="none" stroke-linecap="round"/></g>`;
      break;
    case 'X':
      body = `<g stroke="${INK}" stroke-width="4" stroke-linejoin="round">
        <path d="M50 12c-20 0-32 14-32 32 0 12 6 20 14 24v14h36V68c8-4 14-12 14-24 0-18-12-32-32-32z" fill="#fbfaf7"/>
        <circle cx="38" cy="46" r="8" fill="${INK}"/><circle cx="62" cy="46" r="8" fill="${INK}"/>
        <path d="M50 56l-5 9h10z" fill="${INK}"/>
        <path d="M42 74v8M50 74v8M58 74v8" fill="none"/></g>`;
      break;
    default:
      body = text('?');
  }
  return `<svg viewBox="0 0 100 100" xmlns="http://www.w3.org/2000/svg">${body}</svg>`;
}

function setMessage(msg, kind = 'error') {
  const el = $('message');
  el.textContent = msg || '';
  el.className = 'message' + (msg ? ' ' + kind : '');
}

function buildBoard(s) {
  const forge = $('forge');
  forge.innerHTML = '';
  tiles.clear();
  for (const t of s.tiles) {
    const el = document.createElement('div');
    el.className = 'tile';
    el.dataset.square = t.square;
    el.innerHTML = `<span class="coord">${t.square}</span><div class="sym"></div><div class="pips"></div>`;
    el.addEventListener('click', () => strike(t.square));
    forge.appendChild(el);
    tiles.set(t.square, el);
  }
}

function paintBoard(s, struck) {
  const targets = new Set(s.targets);
  const last = s.last ? s.last.square : null;
  const hinted = s.hint ? s.hint.square : null;
  $('forge').classList.toggle('restricted', !s.first_strike);
  $('forge').classList.toggle('over', s.status === 'over');
  for (const t of s.tiles) {
    const el = tiles.get(t.square);
    const gone = t.hits === 0;
    el.classList.remove('h1', 'h2', 'h3', 'gone');
    el.classList.add(gone ? 'gone' : `h${t.hits}`);
    el.classList.toggle('target', targets.has(t.square));
    el.classList.toggle('last', last === t.square);
    el.classList.toggle('hinted', hinted === t.square);
    const sym = el.querySelector('.sym');
    if (sym.dataset.letter !== (t.letter || '')) {
      sym.dataset.letter = t.letter || '';
      sym.innerHTML = gone ? '' : symbolSvg(t.letter);
    }
    el.querySelector('.pips').innerHTML = gone ? ''
      : [1, 2, 3].map((i) => `<i class="${i <= t.hits ? '' : 'lost'}"></i>`).join('');
    el.title = gone ? `${t.square}: removed` : `${t.square}: ${t.symbol}, ${t.hits} hit${t.hits === 1 ? '' : 's'} left`;
    if (struck === t.square) {
      el.classList.remove('struck');
      void el.offsetWidth;
      el.classList.add('struck');
    }
  }
}

function renderPanel(s) {
  $('rules-badge').textContent = `ChessForge · ${s.rules} rules`;
  $('stat-strikes').textContent = s.strikes;
  $('stat-strikes-of').textContent = `strikes / ${s.total_strikes}`;
  $('stat-removed').textContent = s.tiles_removed;
  $('stat-hits').textContent = s.hits_left;
  $('progress').style.width = `${(100 * s.strikes) / s.total_strikes}%`;
  const over = s.status === 'over';
  $('status').textContent = over
    ? (s.score.cleared ? 'Board cleared!' : 'Game over')
    : (s.first_strike ? 'Strike any tile to begin' : `${s.targets.length} tile${s.targets.length === 1 ? '' : 's'} may be struck`);
  $('status').className = 'status' + (over ? ' over' : '');
  $('rule').textContent = s.last ? s.last.text : 'First strike: any tile.';
  $('score').classList.toggle('shown', over);
  $('score').textContent = over ? s.score.text : '';
  $('btn-hint').disabled = over || busy;
  $('hint-text').textContent = s.hint
    ? `${s.hint.text}${s.hint.candidates.length > 1 ? '; then ' + s.hint.candidates.slice(1).map((c) => `${c.square} (${c.mean})`).join(', ') : ''}.`
    : '';
  const ol = $('strikes');
  ol.innerHTML = '';
  if (!s.history.length) {
    ol.innerHTML = '<li class="empty">No strike yet.</li>';
  }
  s.history.forEach((h, i) => {
    const li = document.createElement('li');
    if (i === s.history.length - 1) li.className = 'latest';
    li.title = h.text;
    li.innerHTML = `<span class="num">${h.number}.</span><span>${h.square}</span><span></span>`;
    li.lastChild.innerHTML = `${h.symbol} (${h.hits}) <span class="arrow">→</span> ${h.became || 'removed'}`;
    ol.appendChild(li);
  });
  ol.scrollTop = ol.scrollHeight;
  const grid = $('legend-grid');
  if (grid.dataset.rules !== s.rules) {
    grid.dataset.rules = s.rules;
    grid.innerHTML = '';
    for (const l of s.legend) {
      grid.insertAdjacentHTML('beforeend', `<span class="mini">${symbolSvg(l.letter)}</span><span></span>`);
      grid.lastChild.textContent = `${l.symbol}: ${l.text}`;
    }
  }
  $('seed-line').textContent = `Game ${s.id} · seed ${s.seed} · ${s.rules} rules`;
}

function render(s, struck) {
  const fresh = !state || state.id !== s.id;
  state = s;
  if (s.status !== 'over') {
    replay = null;
    shown = null;
  } else if (!replay || replay.id !== s.id || replay.strikes !== s.strikes) {
    fetchReplay(s);
  }
  if (fresh) buildBoard(s);
  const view = viewing();
  paintBoard(view ? { ...s, status: 'replay', tiles: view.tiles, targets: [], last: view.last_move, hint: null } : s, struck);
  renderPanel(s);
  if (view) {
    $('status').textContent = `Replay — strike ${shown} of ${replay.positions.length - 1}`;
    $('status').className = 'status';
    const left = view.tiles.filter((t) => t.hits > 0);
    $('stat-strikes').textContent = shown;
    $('stat-removed').textContent = view.tiles.length - left.length;
    $('stat-hits').textContent = left.reduce((n, t) => n + t.hits, 0);
    $('progress').style.width = `${(100 * shown) / s.total_strikes}%`;
    $('rule').textContent = view.last_move ? `Strike ${shown}: ${view.last_move.square}.` : 'The board as dealt.';
    $('score').classList.remove('shown');
  }
  paintReplayBar(replayWhere());
  document.body.dataset.ply = String(replay ? (shown ?? replay.positions.length - 1) : -1);
}

const replayWhere = () => standing(replay, shown);

// -- replays ------------------------------------------------------------------

function fetchReplay(s) {
  const keep = (got, last) => { replay = got; if (got) shown = last; };
  loadReplayAtEnd(API, { id: s.id, strikes: s.strikes }, () => state, keep, () => render(state));
}

function openGame(s) {
  keepInAddress(s.id);
  state = null;
  render(s);
}

async function strike(square) {
  if (!state || busy || state.status === 'over') return;
  if (!state.targets.includes(square)) {
    const tile = state.tiles.find((t) => t.square === square);
    setMessage(tile && tile.hits === 0 ? `${square} is empty: its tile has been removed.`
      : `${square} cannot be struck now. ${state.last ? state.last.text : ''}`, 'info');
    return;
  }
  setMessage('');
  try {
    render(await request('POST', `${API}/${state.id}/strike`, { square }), square);
  } catch (e) {
    setMessage(e.message);
  }
}

async function hint() {
  if (!state || busy) return;
  busy = true;
  $('btn-hint').disabled = true;
  $('hint-text').textContent = 'The solver is thinking…';
  try {
    const s = await request('POST', `${API}/${state.id}/hint`, {});
    busy = false;
    render(s);
  } catch (e) {
    busy = false;
    setMessage(e.message);
    render(state);
  }
}

async function newGame(options) {
  openGame(await request('POST', API, options));
}

function wire() {
  $('btn-hint').addEventListener('click', hint);
  $('btn-new').addEventListener('click', () => {
    const form = $('form-new');
    if (state) form.rules.value = state.rules;
    $('new-message').textContent = '';
    $('dlg-new').showModal();
  });
  $('new-start').addEventListener('click', async (e) => {
    e.preventDefault();
    const form = $('form-new');
    const options = { rules: form.rules.value };
    if (form.seed.value !== '') options.seed = Number(form.seed.value);
    try {
      await newGame(options);
      $('dlg-new').close();
      setMessage('');
    } catch (err) {
      $('new-message').textContent = err.message;
    }
  });
  $('btn-replay').addEventListener('click', async () => {
    try {
      await newGame({ rules: state.rules, seed: state.seed });
      setMessage(`The board of seed ${state.seed} again.`, 'info');
    } catch (e) {
      setMessage(e.message);
    }
  });
  $('btn-rules').addEventListener('click', () => { $('legend').open = !$('legend').open; });
}

async function start() {
  wire();
  wireReplay(replayWhere, (index) => {
    shown = index;
    render(state);
  });
  const saved = await gameInAddress(API, setMessage);
  if (saved) {
    openGame(saved);
    return;
  }
  try {
    await newGame({ rules: 'standard' });
  } catch (e) {
    setMessage(e.message);
  }
}

start();
