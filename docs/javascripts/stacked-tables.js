/* On a phone, a Markdown table of three or more columns reads one row at a time: each cell is labelled with its
   column's header (data-label), and the stylesheet stacks the cells of a row under its first (atlas.css). The table
   keeps no class: the theme styles Markdown tables by table:not([class]). Without this script the table stays a table. */
(function () {
  "use strict";

  function label(table) {
    var head = table.tHead && table.tHead.rows[0];
    if (!head || head.cells.length < 3) { return; }
    var names = Array.prototype.map.call(head.cells, function (th) { return th.textContent.trim(); });
    Array.prototype.forEach.call(table.tBodies, function (body) {
      Array.prototype.forEach.call(body.rows, function (row) {
        Array.prototype.forEach.call(row.cells, function (cell, column) {
          if (names[column]) { cell.setAttribute("data-label", names[column]); }
        });
      });
    });
    table.setAttribute("data-atlas-stack", "");
  }

  function boot() { Array.prototype.forEach.call(document.querySelectorAll(".md-typeset table:not([class])"), label); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", boot); } else { boot(); }
})();

/* A link to an element inside a closed <details> (a support-table cell's note, folded under its engine's grid) opens
   the disclosure and scrolls to it; Chromium does so on fragment navigation by itself, other browsers may not. */
(function () {
  "use strict";

  function reveal() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) { return; }
    var opened = false;
    for (var fold = target.closest("details"); fold; fold = fold.parentElement && fold.parentElement.closest("details")) {
      if (!fold.open) { fold.open = true; opened = true; }
    }
    if (opened) { target.scrollIntoView(); }
  }

  window.addEventListener("hashchange", reveal);
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", reveal); } else { reveal(); }
})();
