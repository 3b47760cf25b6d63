// pnpgen play: the referee page. A state or view file in, the position drawn; a move in,
// the verdict with its rule and the resulting file to download.
"use strict";
const $ = (id) => document.getElementById(id);
let fileName = "state.yaml";

async function ask(move) {
  $("error").textContent = "";
  $("verdict").textContent = "";
  $("verdict").className = "";
  const r = await fetch("/api/referee", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ text: $("state").value, name: fileName, move: move || null }) });
  const d = await r.json();
  if (!r.ok) { $("error").textContent = d.error; return; }
  $("judged").textContent = `judged: ${d.judged}`;
  const board = $("board");
  board.innerHTML = d.svg || "";
  $("text").textContent = d.svg ? "" : d.text;
  $("legal").textContent = d.legal_moves.length ? d.legal_moves.join("\n") : "(no legal moves)";
  const panel = $("result-panel");
  panel.hidden = true;
  if (!d.verdict) return;
  const v = d.verdict;
  const box = $("verdict");
  if (v.legal === false) {
    box.textContent = `ILLEGAL ${v.move}: rule ${v.rule}${v.rule_title ? " (" + v.rule_title + ")" : ""}: ${v.reason}`;
  } else if (v.legal === null) {
    box.className = "cannot";
    box.textContent = `CANNOT TELL ${v.move}: legal only if ${v.legal_if}`;
  } else {
    box.className = "legal";
    const said = [v.then ? `what follows rests on hidden facts: ${v.then}` : "", ...v.events, v.score_line || ""];
    box.textContent = `LEGAL ${v.move}. ` + said.filter(Boolean).join(" · ");
  }
  if (d.result) {
    panel.hidden = false;
    $("result").textContent = d.result;
    const link = $("download");
    link.href = URL.createObjectURL(new Blob([d.result], { type: "text/yaml" }));
    link.download = `${window.PLAY.game.replace(/\//g, "-")}-after-${v.move.replace(/[^A-Za-z0-9]+/g, "_")}.yaml`;
  }
}

$("upload").onchange = async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  fileName = file.name;
  $("state").value = await file.text();
  ask(null);
};
$("show").onclick = () => { fileName = "state.yaml"; ask(null); };
$("ask").onsubmit = (e) => { e.preventDefault(); ask($("move").value); };
$("use-result").onclick = () => { $("state").value = $("result").textContent; fileName = "result.yaml"; ask(null); };
$("play-here").onclick = async () => {
  const r = await fetch("/api/load", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ text: $("state").value, name: fileName }) });
  const d = await r.json();
  if (!r.ok) { $("error").textContent = d.error; return; }
  location.href = "/";
};
