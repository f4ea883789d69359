// Talking to the server: JSON requests whose refusals come back as
// errors with the server's reason, and a follower that hands each new
// version of a game to the page: server-sent events (`/events`), or the
// long poll where a server has none. Every POST says it is JSON, even
// with an empty body, as the server requires of state-changing requests.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function request(method, path, body) {
  const init = { method, headers: {} };
  // The server takes a POST only as JSON, even with nothing to say.
  if (body !== undefined || method !== 'GET') {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body === undefined ? {} : body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, 'network', 'the server cannot be reached');
  }
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    data = null;
  }
  if (!response.ok) {
    const message = data && data.error ? data.error : `the server answered ${response.status}`;
    throw new ApiError(response.status, data && data.code, message);
  }
  return data;
}

// Follows a game: calls onState with every new version until stop() is
// called. Waits a little after a failure so a stopped server is not
// hammered.
export function follow(base, version, onState, onError) {
  let stopped = false;
  let seen = version;
  let source = null;
  const poll = async () => {
    while (!stopped) {
      try {
        const state = await request('GET', `${base}?after=${seen}`);
        if (stopped) return;
        if (state.version !== seen) {
          seen = state.version;
        }
        onState(state);
      } catch (e) {
        if (stopped) return;
        onError(e);
        await new Promise((r) => setTimeout(r, e.status === 404 ? 60000 : 2000));
      }
    }
  };
  if (typeof EventSource === 'function') {
    source = new EventSource(`${base}/events`);
    source.addEventListener('state', (e) => {
      if (stopped) return;
      let state;
      try {
        state = JSON.parse(e.data);
      } catch (err) {
        return;
      }
      if (!(state.version <= seen)) {
        seen = state.version;
        onState(state);
      }
    });
    source.onerror = () => {
      // Closed for good (no events here, or the game is gone): poll,
      // whose answers say why. A dropped connection reconnects by itself.
      if (stopped || source.readyState !== EventSource.CLOSED) return;
      source = null;
      poll();
    };
  } else {
    poll();
  }
  return {
    stop() {
      stopped = true;
      if (source) source.close();
    },
    saw(v) { if (v > seen) seen = v; },
  };
}

// m:ss, with tenths under ten seconds, as the terminal shows clocks.
export function showClock(ms) {
  ms = Math.max(0, Math.floor(ms));
  if (ms < 10000) return `0:0${Math.floor(ms / 1000)}.${Math.floor((ms % 1000) / 100)}`;
  const secs = Math.ceil(ms / 1000);
  const h = Math.floor(secs / 3600);
  const m = Math.floor(secs / 60) % 60;
  const s = secs % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

// A level's measured strength for the level menus, from levels.js:
// "−630 Elo vs level 0 (−890 to −380)", to the nearest 10.
export function strengthText(table, level) {
  const s = table && table[String(level)];
  if (!s) return '';
  if (Number(level) === 0) return 'the yardstick';
  const r = (n) => {
    const v = Math.round(n / 10) * 10;
    return (v > 0 ? '+' : v < 0 ? '−' : '') + Math.abs(v);
  };
  // A pair that scored every point leaves only a bound.
  if (s.bound === '<=') return `at most ${r(s.elo)} Elo vs level 0`;
  if (s.bound === '>=') return `at least ${r(s.elo)} Elo vs level 0`;
  return `${r(s.elo)} Elo vs level 0 (${r(s.low)} to ${r(s.high)})`;
}

// Puts game `id` in the page's address, so that a reload or a link opens it.
export function keepInAddress(id) {
  const url = new URL(location.href);
  url.searchParams.set('game', id);
  history.replaceState(null, '', url);
}

// The game the address names (`?game=ID`) under `api`, or null when it
// names none; `say` tells why a game it names cannot be had.
export async function gameInAddress(api, say) {
  const id = new URL(location.href).searchParams.get('game');
  if (!id) return null;
  try {
    return await request('GET', `${api}/${encodeURIComponent(id)}`);
  } catch (e) {
    say(`${e.message}. A new game was started.`);
    return null;
  }
}

// Follows game `s` under `api`, handing each new version to `onState`;
// `say` tells the person when the server no longer holds the game.
export function followGame(api, s, onState, say) {
  return follow(`${api}/${s.id}`, s.version, onState, (e) => {
    if (e.code === 'unknown_game') say('This game is no longer held by the server: start a new game.');
  });
}

// POSTs an action to `url` and shows the state the server answers with
// `show`; a refusal is said with `say` and thrown on.
export async function postAction(url, body, show, say) {
  try {
    const s = await request('POST', url, body);
    show(s);
    return s;
  } catch (e) {
    say(e.message);
    throw e;
  }
}
