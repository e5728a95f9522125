/* Sortable, filterable tables (class "atlas-sortable"): a header with data-sortable sorts on click or Enter,
   a header with data-filter gets a select of the values its cells list in data-values. No requests. */
(function () {
  "use strict";

  function cellKey(row, column) {
    var cell = row.cells[column];
    return cell ? (cell.getAttribute("data-sort") || cell.textContent.trim().toLowerCase()) : "";
  }

  function setUp(table) {
    var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var body = table.tBodies[0];
    var tools = document.querySelector('.atlas-table-tools[data-for="' + table.id + '"]');
    var filters = [];
    heads.forEach(function (th, column) {
      if (th.hasAttribute("data-sortable")) {
        th.tabIndex = 0;
        th.setAttribute("aria-sort", "none");
        var sort = function () {
          var ascending = th.getAttribute("aria-sort") !== "ascending";
          heads.forEach(function (h) { if (h.hasAttribute("aria-sort")) { h.setAttribute("aria-sort", "none"); } });
          th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
          var rows = Array.prototype.slice.call(body.rows);
          rows.sort(function (a, b) {
            var x = cellKey(a, column), y = cellKey(b, column);
            return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
          });
          rows.forEach(function (row) { body.appendChild(row); });
        };
        th.addEventListener("click", sort);
        th.addEventListener("keydown", function (event) {
          if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sort(); }
        });
      }
      if (th.hasAttribute("data-filter") && tools) {
        var values = {};
        Array.prototype.forEach.call(body.rows, function (row) {
          (row.cells[column].getAttribute("data-values") || "").split("|").forEach(function (v) { if (v) { values[v] = true; } });
        });
        var id = table.id + "-filter-" + th.getAttribute("data-filter");
        var label = document.createElement("label");
        label.setAttribute("for", id);
        label.textContent = th.textContent + " ";
        var select = document.createElement("select");
        select.id = id;
        var all = document.createElement("option");
        all.value = "";
        all.textContent = "all";
        select.appendChild(all);
        Object.keys(values).sort().forEach(function (v) {
          var option = document.createElement("option");
          option.value = v;
          option.textContent = v;
          select.appendChild(option);
        });
        select.addEventListener("change", apply);
        label.appendChild(select);
        tools.appendChild(label);
        filters.push({ column: column, select: select });
      }
    });
    var count = document.createElement("span");
    count.className = "atlas-table-tools__count";
    if (tools) { tools.appendChild(count); }

    function apply() {
      var shown = 0;
      Array.prototype.forEach.call(body.rows, function (row) {
        var visible = filters.every(function (f) {
          return !f.select.value || (row.cells[f.column].getAttribute("data-values") || "").split("|").indexOf(f.select.value) >= 0;
        });
        row.hidden = !visible;
        if (visible) { shown += 1; }
      });
      count.textContent = shown + " of " + body.rows.length + " shown";
    }
    apply();
  }

  function boot() { Array.prototype.forEach.call(document.querySelectorAll("table.atlas-sortable"), setUp); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", boot); } else { boot(); }
})();
