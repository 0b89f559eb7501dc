// Draws seat views (uno_env.table.seat_view) with the SVG cards drawn in Python (uno_env.render.card_svg).
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
    (view.pending || view.pending_color ? `<br><b>penalty: ${view.pending} card(s)${view.pending_color ? " + until the colour" : ""}</b>` : "") +
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

function statusText(view) {
  if (view.over) {
    const w = view.winner;
    let t = w < 0 ? "round over: void" : `round over: ${view.seats[w].name} takes the round` + (view.truncated ? " (stopped at the turn cap)" : "");
    if (view.game_over) t += " · game over";
    return t;
  }
  const who = view.actor === view.viewer ? "you" : view.seats[view.actor].name;
  return `${who} to act (${view.phase.replace("_", " ")})`;
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

// ------------------------------------------------------------------ web app
async function api(method, path, body) {
  const r = await fetch(path, {method, headers: {"Content-Type": "application/json"}, body: body ? JSON.stringify(body) : undefined});
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

function startApp() {
  let game = null, faces = null;
  const err = (e) => { $("#status").innerHTML = `<span class="error">${esc(e.message || e)}</span>`; };
  api("GET", "/api/options").then((o) => {
    $("#rules").innerHTML = o.presets.map((p) => `<option>${p}</option>`).join("");
    $("#opponents").innerHTML = o.agents.map((a) => `<option>${a}</option>`).join("");
  }).catch(err);
  function render(state) {
    game = state;
    if (state.faces) faces = state.faces;
    const legal = state.view.legal;
    const playable = (seat, f) => seat === state.seat && legal.some((a) => a.startsWith("play " + faces[f].name + " ") || a === "play " + faces[f].name);
    drawTable($("#table"), state.view, faces, {playable});
    $("#status").textContent = statusText(state.view);
    $("#log").innerHTML = state.events.map((e) => `<div class="${e.kind === "round_end" ? "end" : ""}">${esc(e.text)}</div>`).join("");
    $("#log").scrollTop = 1e9;
    let moves = legal.map((a) => `<button class="move" data-action="${esc(a)}">${esc(a)}</button>`).join("");
    if (state.view.over && !state.view.game_over) moves = `<button id="nextround">next round</button>`;
    if (state.view.over && state.view.game_over) moves = `<b>game over</b> ` + state.standings.map((s) => `${esc(s.name)} ${s.score}`).join(" · ");
    $("#moves").innerHTML = moves;
    document.querySelectorAll("button.move").forEach((b) => { b.onclick = () => act(b.dataset.action); });
    document.querySelectorAll(".card.playable").forEach((c) => {
      c.onclick = () => {
        const name = faces[+c.dataset.play].name;
        const opts = legal.filter((a) => a === "play " + name || a.startsWith("play " + name + " "));
        if (opts.length === 1) act(opts[0]);
        else $("#moves").innerHTML = opts.map((a) => `<button class="move" data-action="${esc(a)}">${esc(a)}</button>`).join(""),
          document.querySelectorAll("button.move").forEach((b) => { b.onclick = () => act(b.dataset.action); });
      };
    });
    const nr = $("#nextround");
    if (nr) nr.onclick = () => api("POST", `/api/games/${game.id}/next`).then(render).catch(err);
  }
  function act(action) { api("POST", `/api/games/${game.id}/actions`, {action}).then(render).catch(err); }
  $("#new").onclick = () => {
    const body = {rules: $("#rules").value, players: +$("#players").value, opponents: $("#opponents").value, seat: 0};
    if ($("#seed").value !== "") body.seed = +$("#seed").value;
    api("POST", "/api/games", body).then((s) => { render(s); $("#gameid").textContent = "game " + s.id; }).catch(err);
  };
}

window.addEventListener("DOMContentLoaded", () => {
  if (window.UNO_REPLAY) startReplay(window.UNO_REPLAY); else startApp();
});
