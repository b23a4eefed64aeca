// The researcher's view: the error by size with its intervals, a size's positions worst first,
// one position with its label, P(safe), the heads' answers and its window's feature planes.
"use strict";

const research = { opened: false, position: null, plane: 0 };

async function openResearch() {
  if (research.opened) return;
  research.opened = true;
  try { showSizes(await api("/api/research/sizes")); } catch (error) { showError(error.message); }
}

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function showSizes(answer) {
  byId("research-folder").textContent = answer.folder;
  const rows = answer.rows;
  const low = Object.keys(rows[0]).find((key) => /^error .* low$/.test(key));
  const error = low.replace(/ low$/, "");
  const label = error.replace(/^error /, "");
  byId("sizes").tHead.innerHTML = `<tr><th>size (AS)</th><th>records</th><th>error ${label}</th><th>95% interval</th><th></th></tr>`;
  const body = byId("sizes").tBodies[0];
  body.replaceChildren();
  for (const row of rows) {
    const tr = body.insertRow();
    tr.className = "size-row";
    tr.dataset.size = row.size;
    cell(tr, row.size);
    cell(tr, row.count);
    cell(tr, row[error].toFixed(3));
    cell(tr, `${row[low].toFixed(3)} – ${row[`${error} high`].toFixed(3)}`);
    cell(tr, row.note);
    tr.addEventListener("click", () => {
      for (const other of body.rows) other.classList.toggle("chosen", other === tr);
      listSize(row.size);
    });
  }
}

async function listSize(size) {
  try {
    const answer = await api(`/api/research/positions?size=${encodeURIComponent(size)}`);
    const shown = answer.listed < answer.count ? `the ${answer.listed} worst of ${answer.count}` : `${answer.count}`;
    byId("positions-title").textContent = `Size ${size}: ${shown} positions, worst first (file, problem, label, P(safe))`;
    const body = byId("positions").tBodies[0];
    body.replaceChildren();
    for (const position of answer.positions) {
      const tr = body.insertRow();
      tr.className = "position-row";
      tr.dataset.name = position.name;
      cell(tr, position.name);
      cell(tr, position.problem);
      cell(tr, position.label);
      cell(tr, position.p_safe.toFixed(3), position.right ? "" : "wrong");
      if (!position.shown) tr.title = "its subproblem file is not in the data folder";
      tr.addEventListener("click", () => {
        for (const other of body.rows) other.classList.toggle("chosen", other === tr);
        openPosition(position.name, 0);
      });
    }
  } catch (error) { showError(error.message); }
}

async function openPosition(name, window) {
  showError("");
  try {
    const view = await api(`/api/research/position?name=${encodeURIComponent(name)}&window=${window}`);
    research.position = view;
    byId("research-question").textContent = `${view.name} (${view.problem}): ${view.question}`;
    const right = view.label === null ? "" : (view.p_safe >= 0.5) === (view.label === "safe") ? ", right" : ", wrong";
    const moves = view.moves.map((m, i) => `${i + 1}. ${m.move} ${m.p.toFixed(2)}`).join(", ");
    byId("research-facts").textContent = `label: ${view.label}; network: P(safe) = ${view.p_safe.toFixed(3)}${right}; ` +
      `move head: ${moves || "-"}` + (view.best_move ? `; winning move (TR): ${view.best_move}` : "");
    const colour = view.to_play === "B" ? "#000" : "#fff";
    drawBoard(byId("research-board"), {
      size: view.size, stones: view.stones, halo: view.halo, target: parseGoPoint(view.target, view.size),
      moves: view.moves.map((m, i) => ({ point: m.move, label: i + 1, colour })),
    });
    const windows = byId("window-select");
    windows.replaceChildren(...Array.from({ length: view.windows }, (_, k) => new Option(`${k + 1} of ${view.windows}`, k)));
    windows.value = view.window;
    const planes = byId("plane-select");
    planes.replaceChildren(...view.planes.map((p, k) => new Option(`${k + 1}. ${p.name}`, k)));
    research.plane = Math.min(research.plane, view.planes.length - 1);
    byId("research-planes").hidden = false;
    byId("end-state-figure").hidden = !view.end_state;
    if (view.end_state) {
      const glyphs = { "X": { fill: "#111", text: "" }, "O": { fill: "#f4f4f4", text: "" }, ".": { fill: "#dcb35c", text: "" },
                       "?": { fill: "#ccc", text: "?" } };
      const [cx, cy] = view.window_xy;
      // the end state of the whole board, cut to the window shown
      const cells = Array.from({ length: 11 }, (_, r) => Array.from({ length: 11 }, (_, c) => {
        const x = cx + c - 5, y = cy + r - 5;
        return x < 0 || y < 0 || x >= view.size || y >= view.size ? "?" : view.end_state[y][x];
      }));
      drawWindow(byId("end-state"), cells, view.window_xy, view.size, (v) => glyphs[v]);
    }
    showPlane(research.plane);
  } catch (error) { showError(error.message); }
}

function showPlane(k) {
  const view = research.position;
  research.plane = (k + view.planes.length) % view.planes.length;
  byId("plane-select").value = research.plane;
  const plane = view.planes[research.plane];
  drawWindow(byId("plane"), plane.cells, view.window_xy, view.size);
  byId("plane-caption").textContent = `${plane.name}, the window centred on ${view.window_centre}`;
}

document.addEventListener("DOMContentLoaded", () => {
  byId("plane-select").addEventListener("change", (event) => showPlane(parseInt(event.target.value, 10)));
  byId("plane-back").addEventListener("click", () => showPlane(research.plane - 1));
  byId("plane-next").addEventListener("click", () => showPlane(research.plane + 1));
  byId("window-select").addEventListener("change", (event) =>
    openPosition(research.position.name, parseInt(event.target.value, 10)));
});
