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
