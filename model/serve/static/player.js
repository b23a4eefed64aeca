// The player's view: open or build a position, click a group, read the network's halo and the
// solver's proof, step through its main line, download the answer.
"use strict";

const player = {
  sgf: null, name: "board", kind: "problem", size: 9, stones: [], toPlay: "B", target: null,
  halo: null, solve: null, step: 0, asked: 0,
};

function emptyRows(size) { return Array.from({ length: size }, () => ".".repeat(size)); }

function byId(id) { return document.getElementById(id); }

function board() {
  return { size: player.size, stones: player.stones, to_play: player.toPlay, source: player.name,
           target: player.target ? goPoint(player.target[0], player.target[1], player.size) : null,
           frame: byId("frame").checked };
}

function setPosition(position) {
  const keep = player.target && position.size === player.size ? player.target : null;
  Object.assign(player, { kind: position.kind, size: position.size, stones: position.stones,
                          toPlay: position.to_play, toPlayGiven: position.to_play_given !== false,
                          solve: null, step: 0, halo: null, stepHalo: null });
  player.target = position.target ? parseGoPoint(position.target, position.size)
    : keep && position.stones[keep[1]][keep[0]] !== "." ? keep : null;
  byId("frame").checked = position.kind === "game";
  byId("game-moves").hidden = position.kind !== "game";
  if (position.kind === "game") {
    byId("move-slider").max = position.moves;
    byId("move-slider").value = position.move;
    byId("move-number").textContent = position.move;
    byId("move-count").textContent = position.moves;
  }
  ask();
}

async function openSgf(text, name) {
  showError("");
  try {
    player.sgf = text;
    player.name = name;
    player.target = null;
    setPosition(await api("/api/position", { sgf: text, name }));
  } catch (error) { showError(error.message); }
}

async function moveTo(move) {
  try { setPosition(await api("/api/position", { sgf: player.sgf, name: player.name, move })); }
  catch (error) { showError(error.message); }
}

// The halo at once, then the proof: both for the board as it stands.
async function ask() {
  const asked = ++player.asked;
  player.solve = null;
  player.step = 0;
  for (const id of ["question", "network", "verdict", "verdict-cost"]) byId(id).textContent = "";
  byId("verdict").className = "";
  byId("main-line").hidden = true;
  byId("to-play").textContent = `${player.toPlay === "B" ? "Black" : "White"} to play` +
    (player.toPlayGiven ? "" : " (assumed: the file has no PL[])");
  draw();
  try {
    const answer = await api("/api/halo", board());
    if (asked !== player.asked) return;
    player.halo = answer.halo;
    byId("question").textContent = answer.question || "";
    byId("network").textContent = answer.network ? `network: ${answer.network}` +
      (answer.moves.length ? `; moves: ${answer.moves.map((m) => `${m.move} ${m.p.toFixed(2)}`).join(", ")}` : "") : "";
    draw();
  } catch (error) { if (asked === player.asked) showError(error.message); return; }
  if (!player.target) return;
  byId("verdict").textContent = "solving…";
  try {
    const answer = await api("/api/solve", board());
    if (asked !== player.asked) return;
    player.solve = answer;
    showAnswer();
  } catch (error) {
    if (asked === player.asked) { byId("verdict").textContent = ""; showError(error.message); }
  }
}

function showAnswer() {
  const answer = player.solve;
  const verdict = byId("verdict");
  verdict.textContent = answer.verdict;
  verdict.className = answer.status === "unknown" ? "unknown" : "";
  if (answer.timed_out || !answer.steps) return;
  const proved = answer.status === "unknown" ? "" : "proved, ";
  byId("verdict-cost").textContent = `(${proved}${answer.nodes_total.toLocaleString("en")} nodes, ` +
    `${answer.seconds_total.toFixed(2)} s)` + (answer.notes.length ? "; " + answer.notes.join("; ") : "");
  byId("main-line").hidden = false;
  const url = URL.createObjectURL(new Blob([answer.answer_sgf], { type: "application/x-go-sgf" }));
  byId("download").href = url;
  showStep(0);
}

async function showStep(step) {
  const answer = player.solve;
  player.step = Math.max(0, Math.min(step, answer.pv.length));
  player.stepHalo = null;
  const played = answer.pv.slice(0, player.step);
  byId("line-text").textContent = answer.pv.length
    ? `${player.step} of ${answer.pv.length}: ` + played.map((m, i) => `${i + 1}. ${m.color} ${m.move}`).join("  ")
    : answer.status === "unknown" ? "no main line: the group is not settled" : "no move: settled as it stands";
  draw();
  if (player.step > 0) {   // the network's halo on the board of this step, the next side to move first
    try {
      const shown = player.step;
      const next = played[played.length - 1].color === "B" ? "W" : "B";
      const halo = await api("/api/halo", { size: player.size, stones: answer.steps[shown], to_play: next });
      if (player.solve === answer && player.step === shown) { player.stepHalo = halo.halo; draw(); }
    } catch (error) { showError(error.message); }
  }
}

function draw() {
  const answer = player.solve;
  const stepping = answer && answer.steps && player.step > 0;
  const stones = stepping ? answer.steps[player.step] : player.stones;
  const wall = new Set();
  const numbers = {};
  let last = null;
  if (answer && answer.frame) {   // the stones the frame added, which the game does not have
    for (const point of answer.frame.added_sgf) wall.add(`${point.charCodeAt(0) - 97},${point.charCodeAt(1) - 97}`);
  }
  if (stepping) {
    answer.pv.slice(0, player.step).forEach((m, i) => {
      if (m.sgf) {
        const [x, y] = [m.sgf.charCodeAt(0) - 97, m.sgf.charCodeAt(1) - 97];
        if (stones[y][x] === (m.color === "B" ? "X" : "O")) numbers[`${x},${y}`] = i + 1;
        last = [x, y];
      }
    });
  }
  const shownStones = stepping ? stones : answer && answer.framed ? answer.framed : stones;
  drawBoard(byId("board"), { size: player.size, stones: shownStones, halo: stepping ? player.stepHalo : player.halo,
                             target: player.target, wall, numbers, last, onClick: clicked });
}

function clicked(x, y) {
  showError("");
  const tool = document.querySelector("input[name=tool]:checked").value;
  const rows = player.stones.map((row) => [...row]);
  if (tool === "ask") {
    player.target = [x, y];   // an empty point too: the server says there is no group there
  } else if (tool === "remove") {
    rows[y][x] = ".";
  } else {
    rows[y][x] = tool === "B" ? "X" : "O";
  }
  player.stones = rows.map((row) => row.join(""));
  if (player.target && player.stones[player.target[1]][player.target[0]] === "." && tool !== "ask") player.target = null;
  player.halo = null;
  ask();
}

document.addEventListener("DOMContentLoaded", () => {
  byId("sgf-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) openSgf(await file.text(), file.name);
  });
  byId("open-pasted").addEventListener("click", () => openSgf(byId("sgf-text").value, "pasted SGF"));
  byId("new-board").addEventListener("click", () => {
    const size = Math.max(5, Math.min(19, parseInt(byId("new-size").value, 10) || 9));
    player.sgf = null;
    player.name = "board";
    setPosition({ kind: "problem", size, stones: emptyRows(size), to_play: "B", target: null });
  });
  byId("move-slider").addEventListener("change", (event) => moveTo(parseInt(event.target.value, 10)));
  byId("switch-side").addEventListener("click", () => {
    player.toPlay = player.toPlay === "B" ? "W" : "B";
    player.toPlayGiven = true;
    ask();
  });
  byId("frame").addEventListener("change", () => ask());
  byId("line-first").addEventListener("click", () => showStep(0));
  byId("line-back").addEventListener("click", () => showStep(player.step - 1));
  byId("line-next").addEventListener("click", () => showStep(player.step + 1));
  byId("line-last").addEventListener("click", () => showStep(player.solve.pv.length));
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => {
      for (const other of document.querySelectorAll(".tab")) other.classList.toggle("active", other === tab);
      for (const view of document.querySelectorAll(".view")) view.hidden = view.id !== tab.dataset.view;
      if (tab.dataset.view === "research") openResearch();
    });
  }
  api("/api/info").then((info) => { byId("tab-research").hidden = !info.research; }).catch((e) => showError(e.message));
  setPosition({ kind: "problem", size: 9, stones: emptyRows(9), to_play: "B", target: null });
});
