/* The site search's worker: the theme's own worker, whose path (from the site root) follows the '#' of this
 * script's address, with lunr-repair.js applied to the lunr it brings. Each page's search configuration points here
 * (generators/theme_overrides/main.html, under the atlas plugin and in the config `build --engine-config` writes).
 * Only a path of the theme's search worker is loaded. */
(function () {
  var theme = decodeURIComponent(self.location.hash.slice(1));
  if (!/^assets\/javascripts\/workers\/search\.[0-9a-f]+\.min\.js$/.test(theme)) {
    throw new Error("search-worker.js: not the theme's search worker: " + theme);
  }
  var root = new URL("..", self.location.href);  // this file is javascripts/search-worker.js
  importScripts(new URL(theme, root).href, new URL("javascripts/lunr-repair.js", root).href);
  repairLunr(self.lunr);
})();
