// pnpgen play: the table page. Plain JS, no build step. The server sends the table's version
// by server-sent events; the page then fetches what its audience may see and draws it.
"use strict";
const C = window.PLAY;
const $ = (id) => document.getElementById(id);
let viewer = null;          // hotseat: the seat holding the device
let shown = -1;             // the version drawn
let clickedAt = null;       // benchmarks: when a move was clicked
let clickedFrom = -1;       // and the version then shown
window.playTimes = [];      // click -> next position drawn, in ms

function query(extra) {
  const q = new URLSearchParams(C.query || {});
  if (C.hotseat && viewer !== null) q.set("seat", viewer);
  for (const [k, v] of Object.entries(extra || {})) q.set(k, v);
  return q.toString();
}

async function call(path, body) {
  const r = await fetch(path + "?" + query(), body === undefined ? { cache: "no-store" } : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

function showError(text) { $("error").textContent = text || ""; }

function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

function passTo(seat) {
  // hotseat: nothing of the last seat's view stays on the page
  viewer = null;
  for (const id of ["board", "text", "moves", "log-list", "outcomes", "verdict"]) clear($(id));
  $("save").removeAttribute("href");
  $("pass-text").textContent = `Pass the device to seat ${seat}`;
  $("pass-button").textContent = `I am seat ${seat}: show my cards`;
  $("pass-button").onclick = () => { viewer = seat; $("pass").hidden = true; refresh(); };
  $("pass").hidden = false;
  $("status").textContent = `Pass the device to seat ${seat}`;
}

async function refresh() {
  try {
    if (C.hotseat) {
      const turn = await call("/api/turn");
      const next = turn.to_move.seat;
      const human = next !== null && C.humans.includes(next);
      if ((human && next !== viewer) || viewer === null) { passTo(human ? next : C.humans[0]); return; }
    }
    draw(await call("/api/state"));
  } catch (e) { showError(e.message); }
}

function statusText(d) {
  const t = d.to_move;
  if (t.kind === "over") return "Game over";
  if (t.kind === "chance") return d.dice === "hand" ? "Chance: enter what was rolled" : "Rolling the dice";
  const you = d.audience === t.seat || (d.audience === null && t.who === "human");
  if (t.who !== "human") return `Seat ${t.seat} (${t.who}) is thinking`;
  return `Seat ${t.seat} to move` + (you ? (d.audience === null ? "" : " (you)") : "");
}

function button(text, onClick) {
  const b = document.createElement("button");
  b.type = "button"; b.textContent = text; b.onclick = onClick;
  return b;
}

function draw(d) {
  if (d.version < shown) return;  // an answer overtaken by a later one
  const board = $("board");
  clear(board);
  if (d.svg) {
    board.innerHTML = d.svg;
    const svg = board.querySelector("svg");  // at most twice its own size: a small picture stays small
    if (svg) svg.style.maxWidth = `${2 * parseFloat(svg.getAttribute("width"))}px`;
  }
  else { const pre = document.createElement("pre"); pre.textContent = d.text; board.append(pre); }
  $("text-panel").hidden = !(d.svg && d.text);
  $("text").textContent = d.svg && d.text ? d.text : "";
  $("text-title").textContent = d.hidden ? `What seat ${d.audience} sees (its view file)` : "In words";
  $("seats").textContent = d.seats.map((s) => `seat ${s.seat}: ${s.who}` + (d.audience === s.seat ? " (you)" : "")).join(" · ");
  const st = $("status");
  st.textContent = statusText(d);
  st.className = d.to_move.kind === "chance" || (d.to_move.who && d.to_move.who !== "human") ? "waiting" : "";
  const moves = $("moves");
  clear(moves);
  const fold = d.moves.length > 8 || d.moves.some((g) => g.groups.length);  // many: folded by kind
  const place = (group, into) => {
    const box = document.createElement(fold ? "details" : group.kind ? "fieldset" : "div");
    if (group.kind) {
      const l = document.createElement(fold ? "summary" : "legend");
      l.textContent = fold ? `${group.kind} (${group.count})` : group.kind;
      box.append(l);
    }
    for (const m of group.moves) box.append(button(m, () => play(m)));
    for (const inner of group.groups) place(inner, box);
    into.append(box);
  };
  for (const group of d.moves) place(group, moves);
  $("move-panel").hidden = d.moves.length === 0;
  const chance = d.to_move.kind === "chance" && d.dice === "hand" && (d.audience === null || !d.hidden);
  $("chance").hidden = !chance;
  clear($("outcomes"));
  if (chance) {
    $("chance-example").textContent = d.outcomes.length ? d.outcomes[0] : `${d.outcome_count} outcomes`;
    for (const o of d.outcomes) $("outcomes").append(button(o, () => play(o)));
  }
  $("undo").disabled = !d.can_undo;
  $("redo").disabled = !d.can_redo;
  $("save").href = URL.createObjectURL(new Blob([d.file], { type: "text/yaml" }));
  $("save").download = `${d.game.replace(/\//g, "-")}-${d.audience ? "seat-" + d.audience + "-view" : "state"}.yaml`;
  $("load-label").hidden = d.audience !== null && !C.hotseat;
  const log = $("log-list");
  clear(log);
  for (const e of d.log) {
    const li = document.createElement("li");
    li.textContent = `${e.who}: ${e.text}`;
    if (e.hidden) li.className = "hidden";
    log.append(li);
  }
  log.scrollTop = log.scrollHeight;
  const out = $("outcome");
  if (d.outcome) {
    const scores = d.outcome.scores.map((s, k) => `seat ${k + 1}: ${s}`).join(", ");
    const won = d.outcome.winners.length ? `seat ${d.outcome.winners.join(", ")} won` : "no winner";
    out.textContent = `Game over${d.outcome.end ? " (" + d.outcome.end + ")" : ""}: ${won}. Scores ${scores}`;
  } else out.textContent = "";
  shown = d.version;
  document.body.dataset.version = d.version;
  document.body.dataset.toMove = d.to_move.kind === "seat" ? d.to_move.seat : d.to_move.kind;
  if (clickedAt !== null && d.version > clickedFrom) {  // the position after the click, not an older answer
    window.playTimes.push(performance.now() - clickedAt);
    clickedAt = null;
  }
}

async function play(text) {
  showError("");
  clickedAt = performance.now();
  clickedFrom = shown;
  try {
    const v = await call("/api/move", { move: text });
    const box = $("verdict");
    if (!v.legal) {
      clickedAt = null;
      const rule = v.rule ? `rule ${v.rule}${v.rule_title ? " (" + v.rule_title + ")" : ""}: ` : "";
      box.textContent = `Illegal: ${v.move}. ${rule}${v.reason}`;
      return;
    }
    box.textContent = "";
    $("typed-move").value = "";
    $("rolled-move").value = "";
    if (v.version !== shown) await refresh();
  } catch (e) { clickedAt = null; showError(e.message); }
}

$("typed").onsubmit = (e) => { e.preventDefault(); play($("typed-move").value); };
$("rolled").onsubmit = (e) => { e.preventDefault(); play($("rolled-move").value); };
$("roll").onclick = () => call("/api/roll", {}).then(refresh, (e) => showError(e.message));
$("undo").onclick = () => call("/api/undo", {}).then(refresh, (e) => showError(e.message));
$("redo").onclick = () => call("/api/redo", {}).then(refresh, (e) => showError(e.message));
$("load").onchange = async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  showError("");
  try { await call("/api/load", { text: await file.text(), name: file.name }); await refresh(); }
  catch (err) { showError(err.message); }
  e.target.value = "";
};

const events = new EventSource("/api/events?" + new URLSearchParams(C.query || {}).toString());
events.onmessage = (e) => { if (Number(e.data) !== shown) refresh(); };
refresh();
