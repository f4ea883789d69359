// The games page: every game the server keeps, being played or over,
// newest first (GET /api/games), each row opening the game on its own
// kind of board, where a finished game replays. Older games come a page
// at a time through the list's cursor.

import { request } from './api.js';

const $ = (id) => document.getElementById(id);
const PAGE = 50;
const BOARD = { chess: '/chess', checkers: '/checkers', chessforge: '/chessforge' };
const RULES = {
  antichess: 'Antichess 2002', antichess1994: 'Antichess 1994', chess: 'Chess',
  checkers: 'Checkers', chessforge: 'ChessForge',
};

let next = null;

function when(stamp) {
  // The server's time stamps: seconds or milliseconds since 1970, or text.
  let date;
  if (typeof stamp === 'number') date = new Date(stamp < 1e12 ? stamp * 1000 : stamp);
  else date = new Date(stamp);
  if (Number.isNaN(date.getTime())) return String(stamp ?? '');
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function seat(side) {
  if (!side) return '';
  const who = side.player === 'human' ? 'person' : side.player;
  return `<span class="pname">${escape(side.name)}</span><span class="pseat">${escape(who)}</span>`;
}

function escape(text) {
  return String(text ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function result(g) {
  if (g.status === 'playing') return '<span class="live">being played</span>';
  if (!g.result) return `<span class="muted">${escape(g.status)}</span>`;
  return `<span class="score">${escape(g.result.score)}</span> <span class="muted">${escape(g.result.text || g.result.reason)}</span>`;
}

function row(g) {
  const tr = document.createElement('tr');
  const href = `${BOARD[g.family] || '/chess'}?game=${encodeURIComponent(g.id)}`;
  const moves = Math.ceil((g.plies || 0) / 2);
  tr.dataset.game = g.id;
  tr.dataset.family = g.family;
  tr.innerHTML = `<td class="date">${escape(when(g.created))}</td>` +
    `<td>${escape(RULES[g.rules] || g.rules)}</td>` +
    `<td>${seat(g.white)}</td><td>${seat(g.black)}</td>` +
    `<td>${result(g)}</td>` +
    `<td class="num" title="${g.plies} plies">${moves}</td>` +
    `<td><a class="button open" href="${href}">${g.status === 'playing' ? 'Watch' : 'Replay'}</a></td>`;
  tr.addEventListener('click', (e) => {
    if (!e.target.closest('a')) location.href = href;
  });
  return tr;
}

async function load(more) {
  const form = $('filters');
  const query = new URLSearchParams({ limit: String(PAGE) });
  if (form.family.value) query.set('family', form.family.value);
  if (form.status.value) query.set('status', form.status.value);
  if (more && next !== null) query.set('before', String(next));
  try {
    const answer = await request('GET', `/api/games?${query}`);
    if (!more) $('rows').innerHTML = '';
    for (const g of answer.games) $('rows').appendChild(row(g));
    next = answer.next ?? null;
    $('btn-more').hidden = next === null;
    const none = !$('rows').children.length;
    $('message').className = 'message' + (none ? ' info' : '');
    $('message').textContent = none ? 'No games yet: start one on a board.' : '';
  } catch (e) {
    $('message').className = 'message error';
    $('message').textContent = e.message;
  }
  document.body.dataset.loaded = String(Date.now());
}

function start() {
  const url = new URL(location.href);
  const form = $('filters');
  for (const name of ['family', 'status']) {
    const v = url.searchParams.get(name);
    if (v !== null) form[name].value = v;
  }
  form.addEventListener('change', () => {
    for (const name of ['family', 'status']) {
      if (form[name].value) url.searchParams.set(name, form[name].value);
      else url.searchParams.delete(name);
    }
    history.replaceState(null, '', url);
    load(false);
  });
  $('btn-more').addEventListener('click', () => load(true));
  load(false);
}

start();
