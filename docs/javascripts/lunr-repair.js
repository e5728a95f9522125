/* One repair to lunr 2.3.9, the search library the theme's search worker bundles.
 *
 * While it builds the automaton of every indexed word, lunr merges two nodes when their keys are equal, and a node's
 * key is written as its final flag followed by each edge's label and child id, with nothing between them. With
 * digits among the labels two different nodes can get the same key (edges 1->2 and 3->4 write "1234", and so does
 * one edge 1->234), so lunr merges them and the index then holds words no page has. A query that reaches one of
 * them finds no posting for it and the search worker throws: the site's search shows nothing at all, and which
 * words get invented depends on the whole site's vocabulary. The key below separates every label and id, so
 * equal keys mean equal nodes again.
 */
function repairLunr(lunr) {
  if (!lunr || !lunr.TokenSet) {
    return false;
  }
  lunr.TokenSet.prototype.toString = function () {
    if (this._str) {
      return this._str;  // (lunr sets it once a node can no longer change)
    }
    var key = this.final ? "1" : "0";
    var labels = Object.keys(this.edges).sort();
    for (var i = 0; i < labels.length; i++) {
      key += "\u0000" + labels[i] + "\u0001" + this.edges[labels[i]].id;
    }
    return key;
  };
  return true;
}
