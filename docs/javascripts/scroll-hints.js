/* A table wider than its box scrolls sideways inside it: a support grid at a tablet's width, the format map's checkpoint
   grid, a scheme's release history. Its last columns, often the hardware targets a reader came for, sat out of sight with
   only a scrollbar to say so. While a box hides columns, a line above it says so and a shade marks each edge with more
   beyond it (atlas.css, "More columns"); a box that fits shows neither, so this reads the layout, not a list of pages.
   The box is whatever scrolls the table: the grids' own, the theme's wrapper of a Markdown table (left in place: a wrapper
   of ours goes round it), a row of panels on a phone. A stacked table (stacked-tables.js) fits and shows nothing. The
   shades are drawn over the box because the cells' opaque colours would hide a shadow painted in its background. */
(function () {
  "use strict";

  var SCROLLS = /^(auto|scroll)$/;
  var SAY = { right: "Scroll sideways for more columns \u2192", left: "\u2190 More columns to the left",
              "left right": "\u2190 More columns on both sides \u2192" };
  var boxes = [];
  var scanning = false, showing = false;

  // the element that scrolls a table sideways, the table itself or an ancestor inside the page's content; none if the
  // page would (or nothing does)
  function boxOf(table) {
    // a Markdown table the theme has yet to wrap: its wrapper will be the box (the scan runs again when it appears)
    if (table.matches(".md-typeset table:not([class])") && !table.closest(".md-typeset__table")) { return null; }
    // the outermost: the theme's wrapped table keeps its own "overflow: auto" but is as wide as its rows, and the
    // wrapper round it is what scrolls
    var box = null;
    for (var node = table; node && !node.classList.contains("md-content"); node = node.parentElement) {
      if (SCROLLS.test(getComputedStyle(node).overflowX)) { box = node; }
    }
    return box;
  }

  function make(tag, cls) { var node = document.createElement(tag); node.className = cls; return node; }

  function adopt(box) {
    if (box.hasAttribute("data-atlas-more-box")) { return; }
    box.setAttribute("data-atlas-more-box", "");
    var frame = make("div", "atlas-more");
    var say = make("p", "atlas-more__say");
    say.hidden = true;
    var left = make("span", "atlas-more__edge atlas-more__edge--left"), right = make("span", "atlas-more__edge atlas-more__edge--right");
    left.setAttribute("aria-hidden", "true");
    right.setAttribute("aria-hidden", "true");
    box.parentNode.insertBefore(frame, box);
    frame.appendChild(say);
    frame.appendChild(box);
    frame.appendChild(left);
    frame.appendChild(right);
    var entry = { box: box, frame: frame, say: say, left: left, right: right, moving: false, watch: null };
    boxes.push(entry);
    box.addEventListener("scroll", function () {
      if (!entry.moving) { entry.moving = true; window.requestAnimationFrame(function () { entry.moving = false; show(entry); }); }
    }, { passive: true });
    if (window.ResizeObserver) {
      entry.watch = new ResizeObserver(reshow);
      entry.watch.observe(box);
      if (box.firstElementChild) { entry.watch.observe(box.firstElementChild); }  // a fold opened inside widens the table alone
    }
  }

  // the width a sticky first column covers at the box's left: the left shade starts past it, on the scrolled cells
  // (a row's header held at left: 0; the format map's vendor rows scroll with the cells)
  function stickyWidth(box) {
    var head = Array.prototype.find.call(box.querySelectorAll("tbody th"), function (th) {
      var style = getComputedStyle(th);
      return style.position === "sticky" && style.left !== "auto";
    });
    return head ? Math.max(0, head.getBoundingClientRect().right - box.getBoundingClientRect().left - box.clientLeft) : 0;
  }

  function show(entry) {
    var box = entry.box, hidden = box.scrollWidth - box.clientWidth;
    var sides = [];
    if (hidden > 1 && box.clientWidth > 0) {
      if (box.scrollLeft > 1) { sides.push("left"); }
      if (box.scrollLeft < hidden - 1) { sides.push("right"); }
    }
    var state = sides.join(" ");
    if (state) { entry.frame.setAttribute("data-atlas-more", state); } else { entry.frame.removeAttribute("data-atlas-more"); }
    entry.say.hidden = !state;
    if (state && entry.say.textContent !== SAY[state]) { entry.say.textContent = SAY[state]; }
    if (!state) { return; }
    var top = box.offsetTop + box.clientTop, inside = box.offsetLeft + box.clientLeft;
    [entry.left, entry.right].forEach(function (edge) {
      edge.style.top = top + "px";
      edge.style.height = box.clientHeight + "px";
    });
    entry.left.style.left = inside + (box.scrollLeft > 1 ? stickyWidth(box) : 0) + "px";
    entry.right.style.left = inside + box.clientWidth - entry.right.offsetWidth + "px";
  }

  // which tables scroll in a box: again when the page's content or the window's width changes (a media query can give a
  // box its scrolling, as the format map's panels get on a phone)
  function scan() {
    scanning = false;
    Array.prototype.forEach.call(document.querySelectorAll(".md-content table"), function (table) {
      var box = boxOf(table);
      if (box) { adopt(box); }
    });
    // the selector replaces its comparison on every pick: a table gone is watched no more
    boxes = boxes.filter(function (entry) {
      if (!entry.box.isConnected && entry.watch) { entry.watch.disconnect(); }
      return entry.box.isConnected;
    });
    boxes.forEach(show);
  }

  function later() {
    if (!scanning) { scanning = true; window.requestAnimationFrame(scan); }
  }

  function reshow() {
    if (!showing) {
      showing = true;
      window.requestAnimationFrame(function () { showing = false; boxes.forEach(show); });
    }
  }

  function boot() {
    scan();
    var content = document.querySelector(".md-content");
    // the theme wraps Markdown tables once it has started, and the selector writes its comparison on every pick
    if (content && window.MutationObserver) { new MutationObserver(later).observe(content, { childList: true, subtree: true }); }
    window.addEventListener("resize", later);
    window.addEventListener("load", later);
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", boot); } else { boot(); }
})();
