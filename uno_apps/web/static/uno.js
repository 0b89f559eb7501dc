// Draws seat views (uno_env.view.seat_view) with the SVG cards drawn in Python (uno_env.render.card_svg).
// Two modes: a replay page (window.UNO_REPLAY holds every frame) and the web app of `uno serve` (fetches /api).
"use strict";
const $ = (s) => document.querySelector(s);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
const COLOURS = {R: "red", Y: "yellow", G: "green", B: "blue", P: "pink", T: "teal", O: "orange", U: "purple", free: "any (free)"};
const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;
const BACK = '<svg class="card back" width="22" height="33" viewBox="0 0 40 60"><rect x="1" y="1" width="38" height="58" rx="5" fill="#222" stroke="#fff" stroke-width="2"/><ellipse cx="20" cy="30" rx="14" ry="22" fill="#c62828" transform="rotate(20 20 30)"/></svg>';

function sized(svg, w) { return svg.replace(/width="\d+" height="\d+"/, `width="${w}" height="${Math.round(w * 1.5)}"`); }

function drawTable(el, view, faces, opts) {
  opts = opts || {};
  const me = view.viewer;
  const top = faces[view.top];
  let h = `<div class="title"><b>${esc(view.rules)}</b> · ${view.players} players · round ${view.round}` +
    (view.two_sided ? ` · ${view.side} side` : "") + `</div>`;
  h += `<div class="center"><span id="top" data-face="${esc(top.name)}">${sized(top.svg, 70)}</span><div class="info">` +
    `colour: <b id="colour">${view.color === null ? "to be chosen" : COLOURS[view.color]}</b><br>` +
    `direction: ${view.direction > 0 ? "clockwise ↻" : "counter-clockwise ↺"}<br>` +
    `draw pile: ${view.draw_n}` + (view.draw_top_back !== null && view.draw_top_back !== undefined ?
      ` (top shows ${sized(faces[view.draw_top_back].dim, 22)})` : "") +
    (view.pending || view.pending_color ? `<br><b>penalty: ${view.pending ? plural(view.pending, "card") : ""}` +
      `${view.pending_color ? (view.pending ? ", then " : "") + "cards until a " + COLOURS[view.color] + " card" : ""}</b>` : "") +
    `</div></div>`;
  for (const s of view.seats) {
    const cls = ["seat"];
    if (s.seat === view.actor) cls.push("actor");
    if (s.seat === me) cls.push("me");
    let cards = "";
    if (s.cards !== null) {
      cards = s.cards.map((f) => {
        const play = opts.playable && opts.playable(s.seat, f);
        return `<span class="${play ? "card playable" : "card"}" data-face="${esc(faces[f].name)}"` +
          (play ? ` data-play="${f}"` : "") + `>${sized(faces[f].svg, s.seat === me ? 48 : 34)}</span>`;
      }).join("");
    } else {
      cards = BACK.repeat(Math.min(s.count, 25));
    }
    if (s.backs !== null) cards += `<span class="backs" title="the other side of these cards">${s.backs.map((f) => sized(faces[f].dim, 22)).join("")}</span>`;
    const tags = (s.dealer ? " · dealer" : "") + (s.vulnerable ? " · <b>no UNO called!</b>" : "");
    h += `<div class="${cls.join(" ")}" data-seat="${s.seat}"><span class="name" title="${esc(s.name)}">${esc(s.name)}${s.seat === me && s.name !== "you" ? " (you)" : ""}</span>` +
      `<span class="info">${plural(s.count, "card")} · score ${s.score}${tags}</span><div class="cards">${cards}</div></div>`;
  }
  el.innerHTML = h;
}

const PHASE_YOU = {turn: "play a card or draw", drawn: "play the card you drew, or keep it", pending: "answer the draw card",
  choose: "choose a colour", jump_in: "jump in, or let it pass", deflect: "pass the skip on, or take it"};
const PHASE_THEM = {turn: "to play", drawn: "to play or keep the card drawn", pending: "to answer the draw card",
  choose: "to choose a colour", jump_in: "may jump in", deflect: "may pass the skip on"};

function statusText(view) {
  const who = (p) => p === view.viewer ? "you" : view.seats[p].name;
  if (view.over) {
    const w = view.winner;
    let t = w < 0 ? "round over: void, nobody scores" : `round over: ${who(w) === "you" ? "you take" : who(w) + " takes"} the round` +
      (view.truncated ? " (stopped at the turn cap)" : "");
    if (view.game_over) t += " · game over";
    return t;
  }
  if (view.actor === view.viewer) return `your turn: ${PHASE_YOU[view.phase]}`;
  return `${who(view.actor)} ${PHASE_THEM[view.phase] || "to act"}`;
}

// ------------------------------------------------------------------ replay page
function startReplay(data) {
  let i = 0, timer = null;
  const n = data.frames.length - 1;
  const viewerSel = $("#viewer");
  viewerSel.innerHTML = `<option value="all">the whole table (omniscient view: every hand shown)</option>` +
    data.names.map((nm, p) => `<option value="${p}">seat ${p}: ${esc(nm)}</option>`).join("");
  const slider = $("#slider");
  slider.max = n;
  function show() {
    const v = viewerSel.value;
    const fr = data.frames[i];
    const view = fr.views[v];
    drawTable($("#table"), view, data.faces);
    $("#step").textContent = `action ${i} / ${n}`;
    $("#status").textContent = statusText(view);
    slider.value = i;
    const log = data.events.slice(0, fr.upto).map((e, k) =>
      e.text[v] && `<div class="${k >= (i ? data.frames[i - 1].upto : 0) ? "cur" : ""} ${e.kind === "round_end" ? "end" : ""}">${esc(e.text[v])}</div>`);
    $("#log").innerHTML = log.join("");
    $("#log").scrollTop = 1e9;
  }
  const go = (k) => { i = Math.max(0, Math.min(n, k)); show(); };
  $("#first").onclick = () => go(0);
  $("#prev").onclick = () => go(i - 1);
  $("#next").onclick = () => go(i + 1);
  $("#last").onclick = () => go(n);
  slider.oninput = () => go(+slider.value);
  viewerSel.onchange = show;
  $("#play").onclick = () => {
    if (timer) { clearInterval(timer); timer = null; $("#play").textContent = "▶ play"; return; }
    $("#play").textContent = "⏸ pause";
    timer = setInterval(() => { if (i >= n) { $("#play").click(); } else go(i + 1); }, +$("#speed").value);
  };
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") go(i + 1);
    if (e.key === "ArrowLeft") go(i - 1);
  });
  $("#meta").textContent = data.title;
  show();
}

// ------------------------------------------------------------------ web app (uno serve)
async function api(method, path, body, token) {
  const headers = {"Content-Type": "application/json"};
  if (token) headers.Authorization = "Bearer " + token;
  const r = await fetch(path, {method, headers, body: body ? JSON.stringify(body) : undefined});
  const j = await r.json().catch(() => ({error: `the server answered ${r.status} ${r.statusText}`}));
  if (!r.ok) throw Object.assign(new Error(j.error || r.statusText), {status: r.status});
  return j;
}

function startApp() {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("game") && hash.get("token")) playGame(hash.get("game"), hash.get("token"), null);
  else lobby();
  window.addEventListener("hashchange", () => location.reload());
}

const showError = (e) => { $("#status").innerHTML = `<span class="error">${esc(e.message || e)}</span>`; };

// the form that makes a table: the rules, the seats (an agent that fits them, or a person), a seed
function lobby() {
  let o = null;
  const chosen = {};
  function drawSeats() {
    const n = Math.max(2, Math.min(10, Math.round(+$("#players").value) || 2));
    const rules = $("#rules").value;
    const mine = Math.min(+$("#seat").value || 0, n - 1);
    document.querySelectorAll("select.opp").forEach((s) => { chosen[s.dataset.seat] = s.value; });
    $("#seat").innerHTML = [...Array(n).keys()].map((p) => `<option value="${p}"${p === mine ? " selected" : ""}>${p}</option>`).join("");
    const fit = o.agents.filter((a) => o.fits[a][rules].includes(n));
    $("#seats").innerHTML = [...Array(n).keys()].filter((p) => p !== mine).map((p) => {
      const pick = [o.human, ...fit].includes(chosen[p]) ? chosen[p] : (fit.includes("heuristic") ? "heuristic" : fit[0]);
      return `<label>seat ${p} <select class="opp" data-seat="${p}">` + [o.human, ...fit].map((a) =>
        `<option value="${esc(a)}"${a === pick ? " selected" : ""}>${a === o.human ? "a person (join link)" : esc(a)}</option>`).join("") + `</select></label>`;
    }).join(" ");
    document.querySelectorAll("select.opp").forEach((s) => { s.onchange = seedRule; });
    seedRule();
  }
  function seedRule() {  // a seed only at a table of you and agents: whoever knows it can compute every hand
    const people = [...document.querySelectorAll("select.opp")].some((s) => s.value === o.human);
    $("#seed").disabled = people;
    if (people) $("#seed").value = "";
    $("#seed").title = people ? "no seed at a table with other people: it is dealt from fresh entropy, so nobody can compute another's hand"
      : "a chosen seed deals the same game again, and reveals the deal to whoever knows it";
  }
  api("GET", "/api/options").then((opts) => {
    o = opts;
    $("#rules").innerHTML = o.presets.map((p) => `<option>${esc(p)}</option>`).join("");
    $("#rules").onchange = drawSeats; $("#players").oninput = drawSeats; $("#seat").onchange = drawSeats;
    drawSeats();
  }).catch(showError);
  $("#new").onclick = () => {
    const opponents = [...document.querySelectorAll("select.opp")].map((s) => s.value);
    const body = {rules: $("#rules").value, players: opponents.length + 1, opponents, seat: +$("#seat").value};
    if ($("#seed").value !== "" && !$("#seed").disabled) body.seed = +$("#seed").value;
    if ($("#name").value.trim()) body.name = $("#name").value.trim();
    api("POST", "/api/games", body).then((s) => {
      history.replaceState(null, "", `#game=${s.id}&token=${s.token}`);  // a reload comes back to this seat
      playGame(s.id, s.token, s);
    }).catch(showError);
  };
}

// one seat's table (or the spectator's): drawn from the state the server sends, polled each second
function playGame(gid, token, first) {
  $("#lobby").hidden = true;
  $("#gameid").innerHTML = `<a href="/">new table</a>`;
  let state = null, faces = null, busy = false, timer = null, waiting = null;
  const call = (method, path, body) => api(method, path, body, token);
  const send = (path, body, retry) => {
    if (busy) return;
    busy = true;
    call("POST", path, body).then((s) => { waiting = null; render(s); }).catch((e) => {
      if (e.status === 409 && /^wait:/.test(e.message)) {  // another seat decides first: sent again each second
        waiting = {path, body};
        $("#status").innerHTML = `<span class="wait">waiting: the table is not ready for your move; it goes as soon as it is</span>`;
      } else {
        waiting = null;
        if (!(retry && e.status === 409)) showError(e);  // (a waiting move the table moved past: just redraw)
      }
    }).finally(() => { busy = false; });
  };
  const act = (action) => send(`/api/games/${gid}/actions`, {action, turn: state.turn});

  function drawPeople(people) {
    const v = state.view;
    const typing = document.activeElement && document.activeElement.id === "myname";
    if (typing) return;  // not while the person types their name
    $("#people").innerHTML = "<b>at the table</b>" + (state.seat !== null ?
      `<div><label>your name <input id="myname" maxlength="24" value="${esc(people[state.seat].name)}"></label> <button id="rename">set</button></div>` : "") +
      people.map((p) => {
      const what = p.human ? (p.seat === state.seat ? "you" : p.connected ? "connected" : p.joined ? "away" : "not joined yet")
        : `bot: ${esc(p.agent)}`;
      return `<div class="person${p.seat === v.actor ? " actor" : ""}" data-seat="${p.seat}" data-connected="${p.connected}">` +
        `${esc(p.name)} · ${what}${p.seat === v.actor ? " · <b>to act</b>" : ""}</div>`;
    }).join("");
    if ($("#rename")) {
      const rename = () => call("POST", `/api/games/${gid}/name`, {name: $("#myname").value}).then(render).catch(showError);
      $("#rename").onclick = rename;
      $("#myname").onkeydown = (e) => { if (e.key === "Enter") { e.target.blur(); rename(); } };
    }
  }

  function drawMoves() {
    const s = state, v = s.view;
    let h = "";
    if (v.over && !v.game_over && s.seat !== null) h = `<button id="nextround">next round</button>`;
    if (v.game_over) {
      h = `<b>game over</b> ` + s.standings.map((x) => `${esc(x.name)} ${x.score}`).join(" · ");
      if (s.seat !== null) h += ` <button id="newgame">new game (scores from zero)</button>`;
    }
    h += s.moves.filter((m) => m.face === null).map((m) =>
      `<button class="move${m.colour ? " colour c-" + m.colour : ""}" data-action="${esc(m.action)}">${esc(m.label)}</button>`).join("");
    $("#moves").innerHTML = h;
    document.querySelectorAll("#moves button.move").forEach((b) => { b.onclick = () => act(b.dataset.action); });
    if ($("#nextround")) $("#nextround").onclick = () => send(`/api/games/${gid}/next`, {turn: s.turn});
    if ($("#newgame")) $("#newgame").onclick = () => send(`/api/games/${gid}/next`, {turn: s.turn, new_game: true});
  }

  function chooser(opts) {  // a wild (or a card aimed at a seat): which colour, which seat
    $("#moves").innerHTML = `<span>play ${esc(faces[opts[0].face].name)}: </span>` + opts.map((m) =>
      `<button class="move choice${m.colour ? " colour c-" + m.colour : ""}" data-action="${esc(m.action)}">${esc(m.label)}</button>`).join("") +
      ` <button id="cancel">cancel</button>`;
    document.querySelectorAll("#moves button.move").forEach((b) => { b.onclick = () => act(b.dataset.action); });
    $("#cancel").onclick = drawMoves;
  }

  function render(s) {
    if (s.unchanged) { drawPeople(s.people); return; }
    state = s;
    document.body.dataset.turn = s.turn;  // what has been drawn (the browser tests wait on it)
    const v = s.view;
    const playable = (seat, f) => seat === s.seat && s.moves.some((m) => m.face === f);
    drawTable($("#table"), v, faces, {playable});
    let status = s.seat === null ? "watching · " + statusText(v) : statusText(v);
    const hint = s.moves.some((m) => m.face !== null) ? `<div class="hint">the cards you can play are raised and outlined: click one</div>` : "";
    $("#status").innerHTML = esc(status) + hint + `<div class="goal">${esc(s.goal)}</div>` +
      (s.seed_note ? `<div class="note">${esc(s.seed_note)}</div>` : "");
    drawMoves();
    drawPeople(s.people);
    if (s.links) {
      const full = (l) => location.origin + l;
      $("#links").innerHTML = "<b>links</b>" + s.links.seats.map((l) =>
        `<div>${esc(l.name)}: <a class="join" data-seat="${l.seat}" href="${esc(full(l.link))}" target="_blank" rel="noreferrer">join link</a> ` +
        `<input readonly value="${esc(full(l.link))}" title="send this to the person who plays ${esc(l.name)}"></div>`).join("") +
        `<div>spectators: <a class="watch" href="${esc(full(s.links.spectator))}" target="_blank" rel="noreferrer">watch link</a> ` +
        `<input readonly value="${esc(full(s.links.spectator))}"></div>`;
      document.querySelectorAll("#links input").forEach((i) => { i.onfocus = () => i.select(); });
    }
    $("#log").innerHTML = s.events.map((e) => `<div class="${e.kind === "round_end" ? "end" : ""}">${esc(e.text)}</div>`).join("");
    $("#log").scrollTop = 1e9;
    document.querySelectorAll(".card.playable").forEach((c) => {
      c.onclick = () => {
        const opts = s.moves.filter((m) => m.face === +c.dataset.play);
        if (opts.length === 1) act(opts[0].action); else chooser(opts);
      };
    });
  }

  const poll = () => {
    if (busy || !state) return;
    if (waiting) { send(waiting.path, waiting.body, true); return; }
    call("GET", `/api/games/${gid}?since=${state.turn}`).then((s) => { if (!busy) render(s); })
      .catch((e) => { showError(e); if (/no game|token/.test(e.message)) clearInterval(timer); });
  };
  const start = (s) => call("GET", s.faces_url).then((f) => { faces = f; render(s); timer = setInterval(poll, 1000); });
  (first ? start(first) : call("GET", `/api/games/${gid}`).then(start)).catch(showError);
}

window.addEventListener("DOMContentLoaded", () => {
  if (window.UNO_REPLAY) startReplay(window.UNO_REPLAY); else startApp();
});
