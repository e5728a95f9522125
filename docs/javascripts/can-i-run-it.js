/* "Can I run it?": reads the atlas data API (relative URLs only) and renders one answer card.
   Record text is only ever set with textContent or as attribute values, never parsed as HTML. */
(function () {
  "use strict";

  var VERDICTS = {
    "runs": ["Runs", "as specified by the scheme"],
    "yes": ["Runs", "as specified by the scheme"],
    "runs-if": ["Runs, if", "only given the conditions below"],
    "conditional": ["Runs, if", "only given the conditions below"],
    "fallback": ["Falls back", "loads, but computes at another precision"],
    "fails-at-runtime": ["Fails at run time", "a kernel is selected, then fails"],
    "refused": ["Refused", "the engine refuses at load"],
    "no": ["Refused", "no candidate kernel accepts"]
  };
  // a fallback that needs what a default install lacks (api: fallback_if): labelled as a runs-if is
  var FALLBACK_IF = ["Falls back, if", "only given the conditions below; without them the engine fails at run time, " +
    "refuses, or runs the model on another device"];
  // the label of a cell's verdict, or of its part's where the place is one part with an answer of its own: a part's
  // answer is the cell's with what the part needs first, which a default install lacks (derive/parts.py)
  function verdictLabel(cell, verdict, part) {
    return verdict === "fallback" && (part || cell.fallback_if) ? FALLBACK_IF : (VERDICTS[verdict] || [verdict, ""]);
  }
  var NO_KERNEL_HERE = "no kernel or backend of the engine serves this hardware";

  // The sentences the card says as `python -m generators explain` says them (what an answer covers, the format map's
  // notices, a later release, a publisher that disagrees, ...): written once, in generators/derive/wording.py, and
  // read from the page's data (index.words) when it loads; the script only places them (fill, fillText)
  var WORDS = null;
  // the words this script places: a copy of the page's data that lacks one (an index.json older than the script, from
  // a cache) is said not to load, not drawn as a blank card or with "undefined" in a sentence
  var WORDS_PLACED = ["covers", "default_lead", "default_lead_where", "default_lead_outcome", "disagrees", "emulated", "emulated_how", "later_release", "need_engine", "need_tool",
    "layer_schemes", "through_plugin", "through_plugin_none", "plugin_of", "plugin_elsewhere", "plugin_elsewhere_host", "plugin_elsewhere_host_none",
    "plugin_elsewhere_label", "plugin_elsewhere_row", "trap_parts", "trap_when", "trap_contested", "unknown", "whichever", "inferred_step", "inferred_step_unmet", "inferred_below", "read_in", "read_at",
    "whole_checkpoint", "whole_checkpoint_state", "whole_checkpoint_decided", "whole_checkpoint_none", "whole_checkpoint_both",
    "whole_checkpoint_default", "whole_checkpoint_layers"];

  var KNOWN_BY = {
    "code": "the engine's dispatch code, read at ",
    "run": "running the engine's own kernel selection, in the observation linked here; what the kernel computes is read from the code",
    "inferred": "inferred from the engine's dispatch code, read at "
  };
  // what an inferred cell adds after the version read: that one step was not read (a kernel requirement or the scheme's
  // candidate list names it)
  var INFERRED_STEP = " (one step the verdict rests on was not read in the engine; the kernel or scheme record says which)";

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") { node.textContent = attrs[key]; } else { node.setAttribute(key, attrs[key]); }
    });
    (children || []).forEach(function (child) {
      if (child !== null && child !== undefined) {
        node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
      }
    });
    return node;
  }

  // One of WORDS' sentences with its placeholders filled: `{name}` by values[name] (a string, set as text and never
  // parsed as HTML, a node, or a list of them), `{name|text}` by `text`, linked to the address values[name]
  function fill(template, values) {
    var out = [];
    template.split(/(\{[a-z_]+(?:\|[^}]*)?\})/).forEach(function (part, n) {
      if (n % 2 === 0) {
        if (part) { out.push(part); }
        return;
      }
      var slot = /^\{([a-z_]+)(?:\|([^}]*))?\}$/.exec(part);
      filled(values, slot[1]);
      out = out.concat(slot[2] !== undefined ? [el("a", { href: values[slot[1]], text: slot[2] })] : values[slot[1]]);
    });
    return out;
  }

  // the same, filled with strings alone, as one string
  function fillText(template, values) {
    return template.replace(/\{([a-z_]+)(?:\|([^}]*))?\}/g, function (slot, name, text) {
      return text !== undefined ? text : filled(values, name);
    });
  }

  // a placeholder's value, which the script must give (a template with a placeholder it does not know fails loudly)
  function filled(values, name) {
    if (values[name] === undefined || values[name] === null) { throw new Error("no value for {" + name + "}"); }
    return values[name];
  }

  function verdictClass(verdict) {
    return "atlas-verdict atlas-verdict--" + String(verdict).toLowerCase().replace(/[^a-z0-9]+/g, "-");
  }

  // The page reads its own slim copy of the data API (generators/render/selector_data.py): the records it lists and
  // links, with the format map's ratings, then the cells of each hardware target when a pick first needs them (an answer
  // is for one target), not the whole API (api/index.json, api/cells.json, api/format-map.json) on every load.
  function start(root) {
    var api = root.getAttribute("data-api");
    var data = root.getAttribute("data-page-data");
    var site = api.replace(/api\/$/, "");
    fetch(data + "index.json").then(readJson).then(function (index) {
      var lacking = WORDS_PLACED.filter(function (key) { return !index.words || index.words[key] === undefined; });
      if (lacking.length) {
        throw new Error("its index.json lacks the words " + lacking.join(", ") +
          " (a copy older than this page's script, kept by a cache: reload the page)");
      }
      WORDS = index.words;
      var loading = {}, loaded = {};
      // the cells of one target into `cells`, fetched once: null where they are there already (or the target has
      // none), else the promise of them; a failed fetch is tried again with the next pick
      function loadTarget(targetId, cells) {
        if (loaded[targetId] || index.targets.indexOf(targetId) < 0) { return null; }
        if (!loading[targetId]) {
          loading[targetId] = fetch(data + "targets/" + encodeURIComponent(targetId) + ".json").then(readJson).then(function (doc) {
            doc.cells.forEach(function (cell) { cells[cell.scheme + "|" + cell.target] = cell; });
            loaded[targetId] = true;
          });
          loading[targetId].catch(function () { delete loading[targetId]; });
        }
        return loading[targetId];
      }
      setUp(root, site, index, loadTarget);
    }).catch(function (error) { couldNotLoad(root, error); });
  }

  function readJson(r) {
    if (!r.ok) { throw new Error(r.url + ": " + r.status); }
    return r.json();
  }

  function couldNotLoad(root, error) {
    var answer = root.querySelector("#atlas-answer");
    answer.textContent = "";
    answer.removeAttribute("aria-busy");
    answer.appendChild(el("p", { text: "Could not load the atlas data: " + error.message }));
  }

  function byId(list) {
    var map = {};
    list.forEach(function (entry) { map[entry.id] = entry; });
    return map;
  }

  // "Any engine": the second list holds formats, and the answer compares every scheme that reads the format
  var ANY = "any";
  var RUNS = ["runs", "yes", "runs-if", "conditional"];
  var LOADS = RUNS.concat(["fallback"]);  // a model in the scheme loads (Verdict.loads)
  var RANK = ["runs", "yes", "runs-if", "conditional", "fallback", "fails-at-runtime", "refused", "no"];

  function formatsWithSchemes(schemes, records) {
    var found = {};
    schemes.forEach(function (s) {
      s.formats.forEach(function (f) { (found[f] = found[f] || []).push(s); });
    });
    return Object.keys(found).map(function (id) {
      return { id: id, name: records["format"][id] ? records["format"][id].name : id, schemes: found[id] };
    }).sort(function (a, b) { return a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1); });
  }

  function setUp(root, site, index, loadTarget) {
    var records = {};
    Object.keys(index.records).forEach(function (kind) { records[kind] = byId(index.records[kind]); });
    setTerms(site, records);
    // the cells by "scheme|target", of each target loaded so far (loadTarget)
    var cells = {};
    var schemes = index.records["scheme"];
    var formats = formatsWithSchemes(schemes, records);
    var targets = index.records["hardware-target"].slice().sort(function (a, b) { return a.order - b.order; });
    var engineSelect = root.querySelector("#atlas-engine");
    var schemeSelect = root.querySelector("#atlas-scheme");
    var hardwareSelect = root.querySelector("#atlas-hardware");
    var engines = [];
    schemes.forEach(function (s) { if (engines.indexOf(s.engine) < 0) { engines.push(s.engine); } });
    engineSelect.appendChild(el("option", { value: ANY, text: "Any engine (compare them)" }));
    engines.forEach(function (id) {
      var engine = records["engine"][id];
      engineSelect.appendChild(el("option", { value: id, text: engine ? engine.name : id }));
    });
    fillHardware(hardwareSelect, records, targets);
    sayWhatIsNotDerived(root, site, index.records["engine"], engines);

    // the engine's first scheme that reads the format ("" when it has none)
    function schemeFor(engine, format) {
      var match = schemes.filter(function (s) { return s.engine === engine && s.formats.indexOf(format) >= 0; })[0];
      return match ? match.id : "";
    }

    // a switch between the two modes keeps what it can: a scheme's first format, or the engine's scheme for a format
    function fillSchemes() {
      var keep = schemeSelect.value;
      schemeSelect.textContent = "";
      if (engineSelect.value === ANY) {
        formats.forEach(function (f) {
          var count = f.schemes.length;
          schemeSelect.appendChild(el("option", { value: "format:" + f.id,
            text: f.name + " — " + count + (count === 1 ? " scheme" : " schemes") }));
        });
        var kept = records["scheme"][keep];
        if (kept && kept.formats.length) { keep = "format:" + kept.formats[0]; }
      } else {
        schemes.filter(function (s) { return s.engine === engineSelect.value; }).forEach(function (s) {
          var names = s.formats.map(function (f) { return records["format"][f] ? records["format"][f].name : f; });
          schemeSelect.appendChild(el("option", { value: s.id, text: s.name + (names.length ? " — " + names.join(", ") : "") }));
        });
        if (keep.indexOf("format:") === 0) { keep = schemeFor(engineSelect.value, keep.slice("format:".length)); }
      }
      if (keep) { schemeSelect.value = keep; }
      if (!schemeSelect.value && schemeSelect.options.length) { schemeSelect.selectedIndex = 0; }
    }

    // A link names an engine, and a scheme or a format (for one engine, its scheme for that format is picked), and
    // hardware. What the atlas does not hold (a renamed or removed record, a typo) is said above the answer, never
    // silently swapped for the list's first entry; the notice goes with the reader's first change.
    var params = new URLSearchParams(window.location.search);
    var unknown = [];
    // a format the atlas holds as a record, but which no scheme reads: there is nothing to compare, which is a gap
    // in the atlas, not a mistyped link
    var unread = [];
    function pick(select, value, what, format) {
      if (!value) { return; }
      select.value = value;
      if (select.value === value) { return; }
      if (format && records["format"][format]) { unread.push(records["format"][format].name); } else { unknown.push(what); }
    }
    // an engine the atlas holds but none of whose schemes it records is left out of the picker: a gap, not a typo
    var askedEngine = params.get("engine") || "";
    var unschemed = askedEngine && engines.indexOf(askedEngine) < 0 &&
      Object.prototype.hasOwnProperty.call(records["engine"], askedEngine) ? records["engine"][askedEngine] : null;
    if (!unschemed) { pick(engineSelect, askedEngine, "the engine \u201c" + askedEngine + "\u201d"); }
    if (!engineSelect.value && engineSelect.options.length) { engineSelect.selectedIndex = 0; }
    fillSchemes();
    if (engineSelect.value === ANY) {
      pick(schemeSelect, params.get("format") && "format:" + params.get("format"), "the format \u201c" + params.get("format") + "\u201d",
        params.get("format"));
    } else if (params.get("scheme")) {
      pick(schemeSelect, params.get("scheme"), "the scheme \u201c" + params.get("scheme") + "\u201d");
    } else if (params.get("format")) {
      pick(schemeSelect, schemeFor(engineSelect.value, params.get("format")) || "format:" + params.get("format"),
        "a scheme of " + engineSelect.selectedOptions[0].textContent + " for the format \u201c" + params.get("format") + "\u201d");
    }
    // a part the atlas holds but that no hardware target stands for (fillHardware leaves it out) is not a typo
    var askedHardware = withKind(params.get("hardware") || "");
    var untargeted = askedHardware.indexOf("part:") === 0 ? records["accelerator"][askedHardware.slice("part:".length)] : null;
    if (untargeted && untargeted.target) { untargeted = null; }
    if (!untargeted) { pick(hardwareSelect, askedHardware, "the hardware \u201c" + askedHardware + "\u201d"); }
    if (!schemeSelect.value && schemeSelect.options.length) { schemeSelect.selectedIndex = 0; }
    if (!hardwareSelect.value && hardwareSelect.options.length) { hardwareSelect.selectedIndex = 0; }
    var notice = null;
    if (unknown.length || untargeted || unread.length || unschemed) {
      var said = [];
      if (unschemed && RUNS_MODELS.indexOf(unschemed.category) >= 0) {
        said.push("The atlas holds the engine " + unschemed.name + " but records none of its dispatch rules (schemes) " +
          "yet, so it has no answer: a gap in the atlas, not a refusal.");
      } else if (unschemed) {
        // said by what the atlas holds, not by the category: a "compiler" (MLC LLM) can also run models
        said.push("The atlas holds " + unschemed.name + ", listed as a " + String(unschemed.category).replace(/-/g, " ") +
          ", but no scheme (the engine dispatch rules this page answers from) names it as the engine, so it has no " +
          "answer for it.");
      }
      if (unread.length) {
        said.push("The atlas describes the format \u201c" + unread.join("\u201d and \u201c") + "\u201d but records no " +
          "engine's dispatch rules (scheme) that read it yet, so it has no answer: a gap in the atlas, not a refusal.");
      }
      if (unknown.length) {
        said.push("This link asks for " + unknown.join(" and ") + ", which the atlas does not hold (renamed, removed or " +
          "mistyped).");
      }
      if (untargeted) {
        said.push("The atlas holds " + untargeted.name + " but no hardware target (what the engines check, such as " +
          "the compute capability) is recorded for it, so it has no answer.");
      }
      said.push("The answer below is for the picks shown instead.");
      notice = el("p", { "class": "atlas-notice", role: "status", text: said.join(" ") });
      root.insertBefore(notice, root.querySelector("#atlas-answer"));
    }
    // a hand-written link may name a part or a target by its bare id (hardware=amd-gfx950): it means that record
    // when exactly one of the two kinds holds the id; otherwise it stays as written and is said to be unknown
    function withKind(value) {
      if (!value || value.indexOf(":") >= 0) { return value; }
      var meant = [];
      if (Object.prototype.hasOwnProperty.call(records["accelerator"], value)) { meant.push("part:" + value); }
      if ([].some.call(hardwareSelect.options, function (o) { return o.value === "target:" + value; })) {
        meant.push("target:" + value);
      }
      return meant.length === 1 ? meant[0] : value;
    }
    function dropNotice() {
      if (notice) { notice.remove(); notice = null; }
    }

    // the answer for the picks, once the cells of their target are loaded: at once where they are, else after a
    // "loading" line (the answer is marked busy meanwhile); only the latest picks are drawn
    var drawn = 0;
    function update() {
      [engineSelect, schemeSelect, hardwareSelect].forEach(sayWhole);
      var any = engineSelect.value === ANY;
      var query = any ? { engine: ANY, format: schemeSelect.value.slice("format:".length), hardware: hardwareSelect.value }
        : { engine: engineSelect.value, scheme: schemeSelect.value, hardware: hardwareSelect.value };
      window.history.replaceState(null, "", "?" + new URLSearchParams(query).toString() + window.location.hash);
      var answer = root.querySelector("#atlas-answer");
      var ticket = ++drawn;
      var pending = loadTarget(placeOf(records, hardwareSelect.value).targetId, cells);
      if (!pending) { draw(answer, any); return; }
      if (!answer.querySelector(".atlas-answer__loading")) {
        answer.textContent = "";
        answer.appendChild(el("p", { "class": "atlas-answer__loading", text: "Loading the answers for this hardware…" }));
      }
      answer.setAttribute("aria-busy", "true");
      pending.then(function () {
        if (ticket === drawn) { draw(answer, any); }
      }, function (error) {
        if (ticket === drawn) { couldNotLoad(root, error); }
      });
    }
    function draw(answer, any) {
      answer.removeAttribute("aria-busy");
      if (any) {
        var format = formats.filter(function (f) { return "format:" + f.id === schemeSelect.value; })[0];
        renderComparison(answer, site, records, cells, format, hardwareSelect.value, formats);
      } else {
        render(answer, site, records, cells, schemeSelect.value, hardwareSelect.value);
      }
    }
    engineSelect.addEventListener("change", function () { dropNotice(); fillSchemes(); update(); });
    schemeSelect.addEventListener("change", function () { dropNotice(); update(); });
    hardwareSelect.addEventListener("change", function () { dropNotice(); update(); });
    window.addEventListener("resize", function () { [engineSelect, schemeSelect, hardwareSelect].forEach(sayWhole); });
    update();
  }

  // A closed list shows as much of its pick as its width holds: a long format or scheme name ("NVFP4 (Blackwell
  // block-scaled E2M1 with E4M3 scales)", a scheme with its formats) is cut at 390 px, and beside the two other lists
  // at 1280 px. Where the pick does not fit, the line under the list says it whole (the list itself stays as the
  // browser draws it); where it fits, the line is hidden.
  function sayWhole(select) {
    var line = select.nextElementSibling;
    if (!line || !line.classList.contains("atlas-selector__whole")) {
      line = el("span", { "class": "atlas-selector__whole", "aria-hidden": "true" });  // the list's own value is read out
      select.insertAdjacentElement("afterend", line);
    }
    var option = select.options[select.selectedIndex];
    line.textContent = option ? option.text : "";
    line.hidden = !option || fitsClosed(select, option.text);
  }

  var SELECT_ARROW = 24;  // px: the closed list's own arrow beside its text (Chromium, Firefox and Safari draw ~16-20)
  var measure = null;
  function fitsClosed(select, text) {
    var style = getComputedStyle(select);
    measure = measure || document.createElement("canvas").getContext("2d");
    measure.font = [style.fontStyle, style.fontWeight, style.fontSize, style.fontFamily].join(" ");
    var room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - SELECT_ARROW;
    return measure.measureText(text).width <= room;
  }

  // Engines that run models (by their category) but have no scheme records: the picker cannot answer for them, and
  // a reader looking for one should see that it is missing rather than guess.
  var RUNS_MODELS = ["serving-engine", "local-runtime"];

  function sayWhatIsNotDerived(root, site, engineEntries, derived) {
    var missing = engineEntries.filter(function (e) { return RUNS_MODELS.indexOf(e.category) >= 0 && derived.indexOf(e.id) < 0; });
    if (!missing.length) { return; }
    var names = [];
    missing.forEach(function (e, n) {
      if (n) { names.push(n === missing.length - 1 ? " and " : ", "); }
      names.push(link(site, e, e.id));
    });
    var note = el("p", { "class": "atlas-selector__underived" }, ["No answer is derived yet for "].concat(names, [
      ": the atlas holds no scheme records (the engine's dispatch rules) for them, so this page cannot say whether " +
      "they run a format on a part. Their pages list the formats each states support for."]));
    var answer = root.querySelector("#atlas-answer");  // after the answer, which a phone then shows on its first screen
    answer.parentNode.insertBefore(note, answer.nextSibling);
  }

  function fillHardware(select, records, targets) {
    var targetGroup = el("optgroup", { label: "Hardware targets (what the engine checks)" });
    targets.forEach(function (t) { targetGroup.appendChild(el("option", { value: "target:" + t.id, text: t.label || t.name })); });
    var vendors = {};
    var order = [];
    index_accelerators(records).forEach(function (a) {
      if (!a.target) { return; }  // a part no target stands for has no answer
      if (!(a.vendor in vendors)) { vendors[a.vendor] = el("optgroup", { label: a.vendor + " parts" }); order.push(a.vendor); }
      vendors[a.vendor].appendChild(el("option", { value: "part:" + a.id, text: a.name }));
    });
    order.forEach(function (v) { select.appendChild(vendors[v]); });
    select.appendChild(targetGroup);
  }

  function index_accelerators(records) {
    return Object.keys(records["accelerator"]).map(function (id) { return records["accelerator"][id]; });
  }

  // a trap whose record holds an open contest (api: contested, those no finding settled): its claim is not asserted,
  // so the card says so, linking to the first open contest on the trap's page; the title names what is contested
  function contestedMark(site, trap) {
    return el("a", { "class": "atlas-contest-mark atlas-contest-mark--contested", href: site + trap.page + "#" + trap.contested[0].anchor,
      title: trap.contested.map(function (c) { return "Contested: " + c.field; }).join("; "), text: WORDS.trap_contested });
  }

  function link(site, record, fallback, text) {
    if (!record) { return el("span", { text: fallback }); }
    return el("a", { href: site + record.page, text: text || record.name });
  }

  // The glossary's spellings (index: the term records' `spellings`, each leading to the record that defines it), longest
  // first; a card links the first use of each (SEEN, reset for each answer drawn), as a page does, never inside a
  // record's verbatim text (the term's `quoted`: an engine's message a condition quotes, derive/terms.py)
  var TERMS = [];
  var SEEN = {};
  function setTerms(site, records) {
    TERMS = Object.keys(records["term"] || {}).map(function (id) { return records["term"][id]; })
      .reduce(function (all, term) {
        var target = (records[term.defined_by.kind] || {})[term.defined_by.id];
        return target ? all.concat(term.spellings.map(function (s) {
          return { spelling: s, href: site + target.page, title: term.name, quoted: term.quoted || [] };
        })) : all;
      }, []).sort(function (a, b) { return b.spelling.length - a.spelling.length || (a.spelling < b.spelling ? -1 : 1); });
  }
  function wordAt(text, at, length) {
    var edge = /[A-Za-z0-9_]/;
    return !edge.test(text.charAt(at - 1)) && !edge.test(text.charAt(at + length));
  }
  // whether the use of the term's spelling at `at` lies inside a verbatim stretch: one that holds the spelling at an
  // offset stands in the text that far before the use (term_links.py _quoted, the pages' rule)
  function quotedAt(text, at, term) {
    return term.quoted.some(function (q) {
      for (var off = q.indexOf(term.spelling); off >= 0; off = q.indexOf(term.spelling, off + 1)) {
        if (off <= at && text.startsWith(q, at - off)) { return true; }
      }
      return false;
    });
  }
  // record text with the first use of each glossary spelling not yet linked on this answer made a link; text nodes only
  function termed(text) {
    var found = [];
    TERMS.forEach(function (term) {
      if (SEEN[term.spelling]) { return; }
      for (var at = text.indexOf(term.spelling); at >= 0; at = text.indexOf(term.spelling, at + 1)) {
        var end = at + term.spelling.length;
        if (wordAt(text, at, term.spelling.length) && !quotedAt(text, at, term) &&
            !found.some(function (f) { return f.at < end && at < f.end; })) {
          found.push({ at: at, end: end, term: term });
          SEEN[term.spelling] = true;
          return;
        }
      }
    });
    if (!found.length) { return [text]; }
    found.sort(function (a, b) { return a.at - b.at; });
    var nodes = [], from = 0;
    found.forEach(function (f) {
      nodes.push(text.slice(from, f.at));
      nodes.push(el("a", { "class": "atlas-term", href: f.term.href, title: f.term.title, text: text.slice(f.at, f.end) }));
      from = f.end;
    });
    nodes.push(text.slice(from));
    return nodes;
  }

  // each reason after its kernel's name, linked, where the reasons are the candidates' own ('kernel-id: message', in
  // the attempts' order); otherwise (a capability gate's message) as written
  function whyNot(site, records, cell) {
    var tried = (cell.attempts || []).filter(function (a) { return a.reason; });
    var paired = tried.length === cell.reasons.length && tried.every(function (a, n) {
      return cell.reasons[n] === a.kernel + ": " + a.reason;
    });
    if (!paired) { return cell.reasons.map(function (r) { return reasonItem(site, records, r); }); }
    // a reason is often the engine's message as it prints it (the data do not say which): no glossary link inside it
    return tried.map(function (a) { return el("li", {}, [link(site, records["kernel"][a.kernel], a.kernel), ": " + a.reason]); });
  }

  // why a cell does not run, in the engine's order: what the engine prints when it gives up, as it prints it, then
  // each reason (what it lists after it); nothing for a cell that runs. The card's "Why not" section, and a compare
  // row's verdict folds the same one click away.
  function whyNotShown(site, records, cell) {
    if (!(cell.reasons && cell.reasons.length && (!cell.kernel || ["refused", "fails-at-runtime", "no"].indexOf(cell.verdict) >= 0))) {
      return [];
    }
    var why = [el("ol", { "class": "atlas-card__why-not" }, whyNot(site, records, cell))];
    if (cell.verdict === "refused" && cell.failure_message) {
      why.unshift(el("p", { "class": "atlas-card__note atlas-card__raises" }, ["The engine raises: ",
        el("code", { text: cell.failure_message })]));
    }
    return why;
  }

  // one reason as the engine gives it: 'kernel-id: message' names the kernel (linked) as the engine's own list names
  // its class, not by the record's id; any other reason (a capability gate's message) as written
  function reasonItem(site, records, reason) {
    var at = reason.indexOf(": ");
    var id = at > 0 ? reason.slice(0, at) : "";
    var kernel = Object.prototype.hasOwnProperty.call(records["kernel"], id) ? records["kernel"][id] : null;
    if (!kernel) { return el("li", { text: reason }); }
    return el("li", {}, [link(site, kernel, id), reason.slice(at)]);
  }

  // the blockers that apply, said beside the verdict; one that bites only with some models or settings (a MoE model,
  // an environment variable set) says when, in the words the data API derives from its record (applies_when)
  // on a target pick, a trap on one part of the target (a blocker on the GB10 only) names that part: where a trap
  // applies only on some of the target's parts, the card says which (from the cell's trap_parts, trapParts)
  function blockerLine(site, records, cell, blockers, place) {
    var traps = blockers.map(function (t) { return records["gotcha"][t]; });
    var one = blockers.length === 1;
    var only = one ? trapParts(cell, blockers[0], place, records) : "";
    var where = only ? " " + fillText(WORDS.trap_parts, { parts: only }) : " here";
    // on one part and only in some use (the Marlin sm121a trap, with an environment variable set): 'on this target's
    // NVIDIA GB10 (DGX Spark) only, and only if ...', not 'only only if'
    var when = one && traps[0].applies_when ? (only ? ", and" : "") + " " + fillText(WORDS.trap_when,
      { when: traps[0].applies_when }) : "";
    return el("p", { "class": "atlas-card__blocker" }, [
      el("span", { "class": "atlas-severity atlas-severity--blocker", text: "blocker" }),
      (one ? " A trap" : " " + blockers.length + " traps") + " that can stop it or corrupt its output " +
        (one ? "applies" : "apply") + where + when + ": "].concat(blockers.map(function (t, n) {
      var parts = one ? "" : trapParts(cell, t, place, records, true);
      var notes = [traps[n].silent ? "silent" : "", !one && traps[n].applies_when ? fillText(WORDS.trap_when,
        { when: traps[n].applies_when }) : "",
        parts ? "on " + parts + " only" : ""];
      notes = notes.filter(Boolean);
      return el("span", {}, [n ? "; " : "", link(site, traps[n], t), notes.length ? " (" + notes.join("; ") + ")" : ""]);
    })));
  }

  // The target's parts a cell's trap is limited to (api: trap_parts, derived from the parts the trap names, where it
  // names some of the target's parts but not all), or [] where it concerns every part
  function partsOf(cell, t) {
    var found = (cell.trap_parts || []).filter(function (p) { return p.trap === t; })[0];
    return found ? found.parts : [];
  }

  // Those parts in words on a target pick (the onnxruntime-gpu wheel's missing code bites the GB10 at 12.1, not the
  // RTX 5090 at 12.0): '' where the trap concerns the whole pick (a part pick keeps only the traps on that part, trapsAt)
  // (nested: inside a parenthesis, each name's own aside a comma clause, api: inline_name, as the grid's notes read:
  // '(on this target's NVIDIA GB10, DGX Spark only)', not '(... NVIDIA GB10 (DGX Spark) only)')
  function trapParts(cell, t, place, records, nested) {
    return place.kind === "part" ? "" : partNames(records, partsOf(cell, t), nested);
  }

  function partNames(records, parts, nested) {
    var names = parts.map(function (p) {
      var part = records["accelerator"][p];
      return part ? (nested && part.inline_name ? part.inline_name : part.name) : p;
    });
    return names.length > 1 ? names.slice(0, -1).join(", ") + " and " + names[names.length - 1] : (names[0] || "");
  }

  function targetLabel(node) {
    return el("span", { "class": "atlas-card__target" }, [node]);
  }

  // the conditions the defaults meet (api: assumes) that belong only to kernels further down the engine's order than
  // the answer's (its kernel, or the one a default install selects): each with those kernels, in the engine's order
  function furtherDown(cell) {
    var own = [cell.kernel, cell.default_kernel];
    var found = {};
    (cell.assumes || []).forEach(function (a) {
      if ((cell.conditions || []).indexOf(a.condition) >= 0) { return; }
      var of = (cell.attempts || []).filter(function (t) { return t.conditions.indexOf(a.condition) >= 0; })
        .map(function (t) { return t.kernel; });
      if (of.length && !of.some(function (k) { return own.indexOf(k) >= 0; })) {
        found[a.condition] = of.filter(function (k, n) { return of.indexOf(k) === n; });
      }
    });
    return found;
  }

  // a cell whose kernel needs an opt-in a default install lacks leads with the kernel a default install selects, then
  // names its own as the opt-in's (derive/default_lead.py default_lead, WORDS.default_lead); else null
  function defaultLead(cell) {
    if (!cell.kernel || !cell.default_kernel || cell.default_kernel === cell.kernel || LOADS.indexOf(cell.verdict) < 0) { return null; }
    var met = (cell.assumes || []).map(function (a) { return a.condition; });
    var optIn = (cell.opt_in || []).map(function (a) { return a.condition; });
    if (!optIn.length) { optIn = (cell.conditions || []).filter(function (c) { return met.indexOf(c) < 0; }); }
    var step = (cell.otherwise || []).filter(function (s) { return !s.off_default && s.selected === cell.default_kernel; })[0];
    var gets = step && RUNS.indexOf(step.verdict) < 0 ? step.verdict : cell.verdict;
    var where = cell.default_where || [];
    // a runs-if outcome is the default kernel's own condition, said (DefaultLead.needs)
    var needs = step && gets === "runs-if" ? (step.conditions || []).filter(function (c) {
      return met.indexOf(c) < 0 && where.indexOf(c) < 0; }) : [];
    return { "default": cell.default_kernel, where: where, gets: gets, opted: cell.kernel, optIn: optIn, needs: needs };
  }

  // the kernel line of a card or a compare row: the cell's kernel, or the lead above in WORDS' words
  function kernelLead(site, records, cell) {
    var lead = defaultLead(cell);
    if (!lead) { return [link(site, records["kernel"][cell.kernel], cell.kernel)]; }
    return fill(WORDS.default_lead, {
      "default": link(site, records["kernel"][lead["default"]], lead["default"]),
      where: lead.where.length ? fillText(WORDS.default_lead_where, { where: lead.where.join("; ") }) : "",
      outcome: lead.gets === "runs-if" && !lead.needs.length ? "" :
        fillText(WORDS.default_lead_outcome[lead.gets] || "", { needs: lead.needs.join("; ") }),
      opted: link(site, records["kernel"][lead.opted], lead.opted), opt_in: lead.optIn.join("; ") });
  }

  function section(title, body) {
    return el("section", { "class": "atlas-answer__section" }, [el("h3", { text: title })].concat(body));
  }

  // The numbers in the card's condition list (`numbered`: the conditions it lists, in order) of the conditions whose
  // failing leads to a step, or null where one of them is not in that list (a condition of a kernel further down, or
  // one listed under what you opt in to or what the defaults meet)
  function conditionNumbers(step, numbered) {
    var at = step.unmet.map(function (c) { return numbered.indexOf(c) + 1; });
    return at.length && at.every(function (n) { return n > 0; }) ? at : null;
  }

  // the steps by outcome (its verdict and the kernel the engine then selects), each outcome once, in the engine's order;
  // a step of the install (api: of_install, a build for the target) is an outcome of its own: its binaries fail
  // whichever kernel the engine selects, so it is not said "in" the kernel a later step of the same kernel fails in
  function outcomeGroups(steps) {
    var groups = [];
    steps.forEach(function (step) {
      var key = step.verdict + " " + (step.selected || "") + (step.of_install ? " install" : "") +
        (step.elsewhere ? " on " + step.elsewhere : "");
      var group = groups.filter(function (g) { return g.key === key; })[0];
      if (group) { group.steps.push(step); } else { groups.push({ key: key, steps: [step] }); }
    });
    return groups;
  }

  // whether the collapsed line says which listed condition leads to which outcome (where there are several): then the
  // list is numbered
  function numbersConditions(cell, open) {
    return outcomeGroups(cell.otherwise || []).length > 1 &&
      cell.otherwise.some(function (step) { return conditionNumbers(step, open); });
  }

  // What the collapsed line quotes, at most: a condition not in the card's numbered list, and a step's reason for failing
  // at run time; longer ones are said in the steps it folds (a collapsed line is read at a glance)
  var SUMMARY_CONDITION = 80;
  var SUMMARY_REASON = 240;

  // One outcome of the collapsed "If the conditions do not hold" line, in words from the data: which conditions lead
  // there, where there are several outcomes ('without condition 1'; where the card does not list them, the condition
  // itself, or 'without a condition of K' for a long one), the verdict's badge,
  // the kernel and what happens there: a failure at run time says why (its reason, or how many), a refusal how many
  // reasons, a fallback that it computes at another precision, a runs-if that the kernel has conditions of its own.
  function otherwiseSummary(records, steps, numbered, alone) {
    var name = function (k) { return records["kernel"][k] ? records["kernel"][k].name : k; };
    var numbers = [], others = [];
    steps.forEach(function (step) {
      var at = conditionNumbers(step, numbered);
      var quoted = step.unmet.join(" or ");
      var other = quoted.length <= SUMMARY_CONDITION ? quoted : "a condition of " + name(step.kernel);
      if (at) {
        at.forEach(function (n) { if (numbers.indexOf(n) < 0) { numbers.push(n); } });
      } else if (others.indexOf(other) < 0) {
        others.push(other);
      }
    });
    numbers.sort(function (a, b) { return a - b; });
    var when = [];
    if (numbers.length) {
      when.push((numbers.length > 1 ? "conditions " : "condition ") + numbers.slice(0, -1).join(", ") +
        (numbers.length > 1 ? " or " : "") + numbers[numbers.length - 1]);
    }
    when = when.concat(others);
    var step = steps[0];
    var label = (VERDICTS[step.verdict] || [step.verdict])[0];
    // an outcome reached only off the defaults says so, as its step does: a default install that lacks the condition
    // does not reach it (vLLM's AITER FP8 MoE without aiter fails only with the AITER switches set; unset, Triton runs)
    var off = steps.every(function (s) { return s.off_default; }) ? "off the defaults, " : "";
    var said = [alone ? off : off + "without " + when.join(" or ") + ", ", el("span", { "class": verdictClass(step.verdict),
      text: step.verdict === "runs-if" ? "Runs" : label })];
    var via = step.selected ? name(step.selected) : "";
    // a reason names its kernel as the engine's list does ('kernel-id: message'); the line names the kernel already
    var reasons = (step.reasons || []).map(function (r) {
      return step.selected && r.indexOf(step.selected + ": ") === 0 ? r.slice(step.selected.length + 2) : r;
    });
    var why = "";
    if (step.elsewhere) {
      // a placement condition (api: elsewhere): the engine keeps the kernel and runs the model on another device,
      // so the badge is that device's outcome and the line says this hardware runs nothing
      said.push(" via " + via + " on " + step.elsewhere + " instead; this hardware runs nothing");
    } else if (step.verdict === "fails-at-runtime" && steps.every(function (s) { return s.of_install; })) {
      // a condition of the default install (a build for the target, a download and its driver), not of the kernel:
      // its binaries' code is what fails, whichever kernel the engine selects (the reasons name the binaries); where
      // it fails only given a listed condition (the placement on this hardware: without it the model runs elsewhere)
      // the line names that condition
      var given = (step.conditions || []).map(function (c) { return numbered.indexOf(c) + 1; })
        .filter(function (n) { return n > 0; });
      said.push(" " + WORDS.whichever + (given.length ? (given.length > 1 ? ", given conditions " : ", given condition ") +
        given.join(" and ") : ""));
      why = reasons.length === 1 && reasons[0].length <= SUMMARY_REASON ? ": " + reasons[0] :
        reasons.length ? " (" + (reasons.length === 1 ? "the reason" : reasons.length + " reasons") + ", below)" : "";
    } else if (step.verdict === "fails-at-runtime") {
      said.push(via ? " in " + via : "");
      why = reasons.length === 1 && reasons[0].length <= SUMMARY_REASON ? ": " + reasons[0] :
        reasons.length ? " (" + (reasons.length === 1 ? "the reason" : reasons.length + " reasons") + ", below)" : "";
    } else if (step.verdict === "refused") {
      said.push(" at load, no candidate left");
      why = reasons.length ? " (" + (reasons.length === 1 ? "1 reason" : reasons.length + " reasons") + ", below)" : "";
    } else if (step.verdict === "fallback") {
      said.push(" to " + via + ": it loads, but computes at another precision");
    } else {
      said.push(" via " + via + (step.verdict === "runs-if" ? ", given conditions of its own" : ""));
    }
    if (why) { said.push(el("span", { "class": "atlas-otherwise__why", text: why })); }
    return said;
  }

  // what runs when the conditions do not hold: one step per way they can fail, in the engine's order (api: otherwise)
  function otherwiseBlock(site, records, steps, needs, own, numbered) {
    var items = steps.map(function (step) {
      var label = VERDICTS[step.verdict] || [step.verdict, ""];
      var outcome = [el("span", { "class": verdictClass(step.verdict), text: label[0].replace(",", "") })];
      if (step.selected) { outcome.push(" via ", link(site, records["kernel"][step.selected], step.selected)); }
      if (step.elsewhere) { outcome.push(" on " + step.elsewhere + " instead, not on this hardware"); }
      if (step.computes_as) { outcome.push(", computing as " + step.computes_as); }
      var body = [
        // a condition is a clause ("the model is placed on the GPU"), so it follows a colon, never "without" alone
        el("p", { "class": "atlas-otherwise__unmet" }, [step.off_default ? "Off the defaults, without" : "Without",
          step.unmet.length > 1 ? " any one of: " : ": ",
          el("span", { text: step.unmet.join("; ") })].concat(step.of_install ?
          [(step.unmet.length > 1 ? " (conditions of the install, " : " (a condition of the install, ") + WORDS.whichever + ")"] :
          [step.unmet.length > 1 ? " (conditions of " : " (a condition of ",
            link(site, records["kernel"][step.kernel], step.kernel), ")"])),
        el("p", { "class": "atlas-otherwise__outcome" }, outcome)];
      if (step.conditions.length && step.verdict === "runs-if" && !step.elsewhere) {
        body.push(el("p", { "class": "atlas-card__note", text: "Only if " + step.conditions.join("; ") + " (the next step says what happens if not)." }));
      } else if (step.conditions.length) {
        body.push(el("p", { "class": "atlas-card__note", text: "Given " + step.conditions.join("; ") + "." }));
      }
      if (step.reasons.length) {
        body.push(el("ol", { "class": "atlas-otherwise__reasons" }, step.reasons.map(function (r) { return reasonItem(site, records, r); })));
      }
      if (step.failure_message) { body.push(el("p", { "class": "atlas-card__note", text: "The engine raises: " + step.failure_message })); }
      var stepNeeds = needs.filter(function (n) { return n.kernel === step.selected && own.indexOf(n.kernel) < 0; });
      if (stepNeeds.length) {
        body.push(el("p", { "class": "atlas-card__note", text: "Then also needed (the engine does not check it):" }), needItems(site, records, stepNeeds));
      }
      return el("li", { "class": "atlas-otherwise__step", "data-verdict": step.verdict }, body);
    });
    // the summary names each distinct outcome once, in the engine's order: a first step that fails (a driver too
    // old) must not read as what every unmet condition leads to (a batch bound that only hands over to another kernel);
    // each says which conditions lead there and what then happens, in words (otherwiseSummary)
    var groups = outcomeGroups(steps);
    var shown = groups.slice(0, 3);
    var summary = ["If the conditions do not hold: "];
    shown.forEach(function (group, n) {
      if (n) { summary.push("; "); }
      summary = summary.concat(otherwiseSummary(records, group.steps, numbered, groups.length === 1));
    });
    if (groups.length > shown.length) { summary.push(" (and " + (groups.length - shown.length) + " more)"); }
    return el("details", { "class": "atlas-answer__section atlas-otherwise", "data-verdict": steps[0].verdict }, [
      el("summary", {}, summary),
      el("p", { "class": "atlas-card__note", text: "The next outcome in the engine's order, for each way the conditions can fail." }),
      el("ol", {}, items)]);
  }

  // what a kernel the answer runs on needs that the engine does not check when it selects it (api: needs), each with
  // its kernel and the source that says it, in the style of what a part needs; a need of a tool the kernel or the
  // engine is built with (Triton) names the tool, and the engine where its own code brings it in on every start
  function needItems(site, records, needs) {
    return el("ul", { "class": "atlas-card__needs" }, needs.map(function (need) {
      var by = need.kernel ? [link(site, records["kernel"][need.kernel], need.kernel)] :
        fill(WORDS.need_engine, { engine: link(site, records["engine"][need.engine], need.engine) });
      var who = need.tool ? fill(WORDS.need_tool, { by: by, tool: link(site, records["engine"][need.tool], need.tool) }) : by;
      return el("li", {}, [el("span", { text: need.said }), " ("].concat(who, ["; ",
        link(site, records["source"] && records["source"][need.source], need.source), ")"]));
    }));
  }

  // the kernels whose needs the card says with the verdict: its own, the one a default install selects and those it
  // computes with; the needs of a kernel reached only when a condition fails go with that step
  function ownKernels(cell) {
    var own = [cell.kernel, cell.default_kernel];
    (cell.computes_steps || []).forEach(function (step) { own = own.concat(step.kernels); });
    return own.filter(Boolean);
  }

  // a hardware pick: a part (which stands for its target) or a target itself
  function placeOf(records, hardware) {
    var kind = hardware.split(":")[0];
    var id = hardware.slice(kind.length + 1);
    var part = kind === "part" ? records["accelerator"][id] : null;
    return { kind: kind, id: id, part: part, targetId: part ? part.target : id };
  }

  // labels from the data API: 'NVIDIA A10 — SM 8.6 · Ampere', never a parenthesis inside another;
  // the target's label is kept on one line where it fits (a line may break before it, not inside it)
  function placeTitle(site, records, place) {
    var target = records["hardware-target"][place.targetId];
    if (!place.part) { return [targetLabel(link(site, target, place.targetId, target && target.label))]; }
    return [link(site, place.part, place.id), " — ", targetLabel(link(site, target, place.targetId, place.part.target_label))];
  }

  // The cell's sources split for reading: those behind the verdict (the scheme, the kernel that computes, the one a
  // default install selects, published tables, the engine's facts) in the answer's order, and, by kernel, those that
  // back only the kernels the answer passes over (`sources_passed_over`), which the card folds away.
  function sourceGroups(cell) {
    var passed = (cell.sources_passed_over || []).filter(function (g) { return g.sources.length; });
    var folded = {};
    passed.forEach(function (g) { g.sources.forEach(function (s) { folded[s] = true; }); });
    return { verdict: cell.sources.filter(function (s) { return !folded[s]; }), passed: passed };
  }

  // How a fallback computes, said short (api: computes_short, read from the records' typed fields: the requirement's
  // check, the kernel's activation handling and stated precision); where only the note's prose says it, that it
  // computes at another precision, the row's answer saying how
  var FALLBACK_WAYS = {
    "weight-only": "weight-only (activations not quantized)",
    "emulated": "emulated in software",
    "dequantized": "weights dequantized to it",
    "activations-quantized": "activations quantized to it"
  };
  function fallbackShort(cell) {
    var short = cell.computes_short;
    if (!short) { return "another precision (the answer says which)"; }
    return short.precisions.join(" or ") + ", " + (FALLBACK_WAYS[short.way] || short.way);
  }

  // What one step of a cell's route computes in (api: computes_steps): its hardware formats, or the precision its
  // kernels multiply in, as the page's data words it (`said`, derived once with explain's wording); `withSetting` adds
  // the value of a setting that chooses it (`setting_said`, explain's words too), where the line stands alone (a
  // comparison row: the card says it in a note)
  function stepComputes(records, step, withSetting) {
    if (step.precision) {
      return step.said + (withSetting && step.setting_said ? step.setting_said : "");
    }
    return step.formats.map(function (f) { return computedIn(records, f); }).join(" or ");
  }

  // a hardware format a cell computes in, as the precision the multiply runs in (the index's precision_label: "FP8
  // E4M3"), never by the format's name, which may describe a scaling the cell's kernel does not do
  function computedIn(records, f) {
    return records["format"][f] ? records["format"][f].precision_label : f;
  }

  // values of such a setting as one phrase: a run of consecutive integer levels as "0 to 3", else "a, b or c"
  function settingValues(values) {
    var levels = values.every(function (v) { return /^\d+$/.test(v); }) && values.length > 2 &&
      values.every(function (v, n) { return !n || +v === +values[n - 1] + 1; });
    if (levels) { return values[0] + " to " + values[values.length - 1]; }
    return values.length > 1 ? values.slice(0, -1).join(", ") + " or " + values[values.length - 1] : values[0];
  }

  // where a setting chooses a step's precision and its other values give others, the tail of the step's headline:
  // the values that give the step's precision, then each other precision with its values, and beside each value the
  // default and what the tools that write checkpoints store there (written_by), all from the record, so that a reader
  // of a GenAI-built ONNX model sees INT8 at a glance ("FP32 ... with accuracy_level 0 to 3: 0 is the default and what
  // the quantizer writes; INT8 with accuracy_level 4, what ONNX Runtime GenAI's builder writes"); '' without others
  // A default that holds only when quantizing on load (a pre-quantized checkpoint stores its own value, and the record
  // has no default_when) says so, as the comparison row and the note below do: "float32, the default when quantizing
  // on load", not "the default", which a reader of a pre-quantized NF4 checkpoint storing bfloat16 would take as theirs.
  function settingChoices(setting, precision) {
    if (!setting || !setting.others.length) { return ""; }
    var isDefault = "the default" + (setting.stored_in && !setting.default_when ? " when quantizing on load" : "");
    var groups = [{ precision: precision, values: [setting.value] }];
    setting.others.forEach(function (o) {
      var group = groups.filter(function (g) { return g.precision === o.precision; })[0];
      if (group) { group.values.push(o.value); } else { groups.push({ precision: o.precision, values: [o.value] }); }
    });
    return groups.map(function (g, n) {
      var facts = g.values.map(function (v) {
        var said = (v === setting.default ? [isDefault] : []).concat((setting.written_by || []).filter(function (w) {
          return w.value === v; }).map(function (w) { return "what " + w.writer + " writes"; }));
        return said.length ? (g.values.length > 1 ? v + " is " : "") + said.join(" and ") : "";
      }).filter(Boolean);
      return (n ? "; " + g.precision.toUpperCase() : "") + " with " + setting.name + " " + settingValues(g.values) +
        (facts.length ? (g.values.length > 1 ? ": " : ", ") + facts.join(", ") : "");
    }).join("");
  }

  // the notes of the values whose precision depends on more than the value (the headline says what each gives)
  function settingValueNotes(setting) {
    return setting.others.filter(function (o) { return o.note; }).map(function (o) {
      return " With " + setting.name + " " + o.value + ": " + o.note + ".";
    }).join("");
  }

  // the card's line under such a step: what the other values give, or, where only a value other than the default runs
  // as specified here, that the conditions below ask for it; that a pre-quantized checkpoint sets it itself, where it
  // stores the setting (its stored value is the one the values above apply to, not a precision of its own: on an x86
  // CPU with AVX512-BF16 the route computes in bfloat16 whatever it is), and the value each tool that writes checkpoints
  // stores with the precision it gives (written_by: ONNX Runtime's quantizer 0, FP32; ONNX Runtime GenAI's CPU builds
  // 4, INT8), said before the list of other values so that what a built model computes in is read first; where the
  // engine reads it, folded
  function settingNote(setting, precision) {
    var said, onLoad = setting.stored_in && !setting.default_when ? "quantizing on load, " : "";
    var writers = (setting.written_by || []).map(function (w) {
      var gives = setting.others.length ? "" : w.value === setting.value ? precision : "";  // else the headline says it
      return w.writer + " writes " + w.value + (gives ? " (" + gives.toUpperCase() + ")" : "") + (w.when ? " " + w.when : "");
    });
    var stored = setting.stored_in ? " A pre-quantized checkpoint sets it itself: the value stored in " + setting.stored_in + "." : "";
    if (setting.carried) {  // the scheme's models store this value (ONNX Runtime GenAI's CPU builds: accuracy_level 4)
      said = "The setting " + setting.name + " chooses it: these models carry " + setting.value +
        (setting.value_note ? " (" + setting.value_note + ")" : "") + "; " + setting.default + " " +
        (setting.default_when || "unless set") + "." + stored + (writers.length ? " " + writers.join("; ") + "." : "") +
        settingValueNotes(setting);
    } else if (setting.value === setting.default && writers.length) {
      said = "The setting " + setting.name + " chooses it: " + setting.default + " " + (setting.default_when || "unless set") +
        "." + stored + " " + writers.join("; ") + "." + settingValueNotes(setting);
    } else {
      if (setting.value === setting.default) {
        said = "The setting " + setting.name + " chooses it" + (onLoad ? ". Quantizing on load, it is " : ": ") +
          setting.default + (setting.default_when ? " " + setting.default_when : " unless set") + "." +
          settingValueNotes(setting);
      } else {
        said = "Only with the setting " + setting.name + " " + setting.value + " (" + onLoad + "unset, it is " +
          setting.default + ": the conditions below say what runs then).";
      }
      said += stored + (writers.length ? " " + writers.join("; ") + "." : "");
    }
    return el("p", { "class": "atlas-card__note atlas-card__setting" }, [said + " ", el("details", {
      "class": "atlas-why-more atlas-card__route" }, [el("summary", { text: "where it is set" }), el("span", { text: setting.read_from })])]);
  }

  // Where the kernels of a cell's route compute differently (llama.cpp: INT8 dot products in MMVQ and MMQ, FP16 after
  // dequantizing in the cuBLAS path), or its only kernels dequantize: one line per step, with the kernels that take it.
  function computesSteps(site, records, cell) {
    var steps = cell.computes_steps || [];
    if (!(steps.length > 1 || (steps.length === 1 && steps[0].precision))) { return null; }
    return el("ol", { "class": "atlas-card__steps" }, steps.map(function (step) {
      return el("li", {}, [stepComputes(records, step), " ("].concat(step.kernels.map(function (k, n) {
        return el("span", {}, [n ? ", " : "", link(site, records["kernel"][k], k, step.labels[n])]);
      }), [")" + settingChoices(step.setting, step.precision),
        step.setting ? settingNote(step.setting, step.precision) : null]));
    }));
  }

  // The cell's formats that the format map derives as emulated on the picked part (or on parts of the picked target),
  // as the page's data serves them (a cell's notices, derived once by derive/emulated_here.py, the rule `explain`
  // prints); the script words them and decides nothing:
  // the kernel computes in them, but the part has no recorded rate or matrix instruction in them (a vector instruction,
  // as DP4A, is not rated). Such a part computes the format in one of two ways: converted to a wider precision first
  // (Triton widens FP8 to FP16 for the MFMA on gfx90a, to FP32 for vector FMA on gfx906), or as it is with vector
  // instructions (llama.cpp's MMVQ and MMQ multiply INT8 with DP4A on a V100; any FP16 kernel on gfx906, which has no
  // matrix unit), or rescaled into the part's own encoding of the same precision (vLLM-Gaudi halves OCP FP8 E4M3
  // weights into Gaudi 2's E4M3 of range 240 and doubles their scales). The notice names the way the kernels
  // computing in the format record for the picked target (a kernel's without_matrix_instruction), and says only that
  // it is converted or multiplied with vector instructions where one of them records none. A format the map neither
  // rates native nor emulated says nothing: a missing peak is not evidence. Where the cell computes in one of several formats (FP8 E4M3 or MXFP8), a
  // part is named only when the map rates every one of them emulated there: another may be the one that runs.
  function emulatedHere(site, records, cell, place) {
    return (noticesHere(cell, place).emulated || []).map(function (found) {
      var f = found.format;
      var names = found.parts.map(function (p) { return records["accelerator"][p] ? records["accelerator"][p].name : p; });
      return el("span", { "class": "atlas-card__emulated" }, fill(WORDS.emulated, { map: site + "chapters/format-map/",
        format: computedIn(records, f), parts: names.join(", "),
        how: howEmulated(site, records, found.ways) || WORDS.emulated_how }));
    });
  }

  // The notices the page's data serves for a cell on the pick: for the whole target, or for the part picked alone.
  function noticesHere(cell, place) {
    var notices = cell.notices || {};
    return (place.part ? (notices.parts || {})[place.id] : notices.target) || {};
  }

  // How the kernels computing the format record that they compute it on the picked target (their
  // without_matrix_instruction entries for the target and the format), as served: consecutive kernels recording the
  // same way in one group (the first one's source), each kernel linked, then the way in explain's words (`said`), its
  // instruction linked to the source that shows it. Null where one of the kernels records none there (no ways served).
  function howEmulated(site, records, ways) {
    if (!ways.length) { return null; }
    var said = [];
    ways.forEach(function (w, g) {
      if (g) { said.push("; "); }
      w.kernels.forEach(function (k, i) {
        if (i) { said.push(i === w.kernels.length - 1 ? " and " : ", "); }
        said.push(link(site, records["kernel"][k], k, w.labels[i]));
      });
      said.push(w.said);
      if (w.instruction) {
        said.push(" (");
        said.push(link(site, records["source"] && records["source"][w.source], w.instruction, w.instruction));
        said.push(")");
      }
    });
    return said;
  }

  // The cell's formats that the format map rates somewhere but on none of the picked parts (as served): no peak or
  // matrix instruction in them is recorded there, and no source that the part lacks one either. A part with no figures
  // does not read as native by silence: the card says the records do not know.
  function unknownHere(site, records, cell, place) {
    return (noticesHere(cell, place).unknown || []).map(function (found) {
      var f = found.format;
      var names = found.parts.map(function (p) { return records["accelerator"][p] ? records["accelerator"][p].name : p; });
      return el("span", { "class": "atlas-card__unknown" }, fill(WORDS.unknown, { map: site + "chapters/format-map/",
        format: computedIn(records, f), parts: names.join(", ") }));
    });
  }

  // how the cell is known; code is read at the engine's version_read (the Release line), and code read at a development
  // commit (a source with a `branch`) is said to be that instead, with the commits read
  // (a cell that runs on a step marked inferred names the step below instead of pointing to the records, in WORDS'
  // inferred_below as explain says it, with a colon before the list)
  function knownBy(records, cell) {
    var said = KNOWN_BY[cell.known_by] || cell.known_by;
    if (cell.known_by !== "code" && cell.known_by !== "inferred") { return said; }
    var named = cell.known_by === "inferred" && (cell.inferred_steps || []).length;
    return readAt(records, cell, said) + (cell.known_by !== "inferred" ? "" : named ? (named > 1 ? WORDS.inferred_below.many : WORDS.inferred_below.one) + ":" : INFERRED_STEP);
  }

  // The steps marked inferred that the kernels a loading cell runs on meet (cell.inferred_steps, derive/cells.py
  // Cell.inferred_met): what each tests, the source it was read in (linked) and at which commit, in explain's words
  function inferredSteps(site, records, cell) {
    var steps = cell.known_by === "inferred" ? cell.inferred_steps || [] : [];
    if (!steps.length) { return null; }
    return el("ul", { "class": "atlas-card__inferred" }, steps.map(function (step) {
      var readIn = [];
      step.read_in.forEach(function (r, n) {
        var source = records["source"] && records["source"][r.source];
        if (n) { readIn.push(" and "); }
        readIn = readIn.concat(fill(WORDS.read_in, { source: [link(site, source, r.source)],
          at: revisionSaid(source ? String(source.revision || "") : "", source ? source.name : r.source), where: r.where ? ", " + r.where : "" }));
      });
      // the engine whose code holds the step (the kernel's), with its own release: under an ONNX Runtime GenAI cell it is
      // ONNX Runtime's, not the GenAI release the Release line names first
      var engineId = step.engine || cell.engine;
      var engine = records["engine"][engineId];
      return el("li", {}, fill(step.met === false ? WORDS.inferred_step_unmet : WORDS.inferred_step, { kernel: [link(site, records["kernel"][step.kernel], step.kernel)],
        checks: step.checks, read_in: readIn, engine: engine ? engine.name : engineId,
        read: engine && engine.version_read ? String(engine.version_read) : "the release read" }));
    }));
  }

  // ' at commit abc1234' for a git revision, ' at v1.2' for a tag, nothing for none or for prose about it, nor where
  // `shown` (the source's name as the card shows it) names that commit or tag already (derive/wording.py revision_said)
  function revisionSaid(revision, shown) {
    if (/^[0-9a-f]{7,40}$/.test(revision)) {
      var named = (shown.match(/(^|[^0-9A-Za-z])[0-9a-f]{7,40}(?![0-9A-Za-z])/g) || []).some(function (word) {
        return revision.indexOf(word.replace(/^[^0-9a-f]/, "")) === 0;
      });
      return named ? "" : fillText(WORDS.read_at.commit, { revision: revision.slice(0, 7) });
    }
    if (!/^v?[0-9][0-9A-Za-z.+-]*$/.test(revision)) { return ""; }
    var escaped = revision.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp("(^|[^0-9A-Za-z.])" + escaped + "(?![0-9A-Za-z])").test(shown) ? ""
      : fillText(WORDS.read_at.tag, { revision: revision });
  }

  function readAt(records, cell, said) {
    var engine = records["engine"][cell.engine];
    // an engine that runs another's kernels names two releases under Release: name the kernels' one, the dispatch read
    var from = engine && engine.kernels_from && records["engine"][engine.kernels_from.engine];
    var at = from && from.version_read ? from.name + " " + from.version_read + ", the release of its kernels named under Release"
      : engine && engine.version_read ? "the version named under Release" : "the revisions the sources below name";
    var byBranch = {};
    (cell.sources || []).forEach(function (id) {
      var source = records["source"] && records["source"][id];
      if (!source || !source.branch || source.type !== "code") { return; }
      var commits = byBranch[source.branch] = byBranch[source.branch] || [];
      var short = String(source.revision || "").slice(0, 7);
      if (short && commits.indexOf(short) < 0) { commits.push(short); }
    });
    var branches = Object.keys(byBranch);
    if (!branches.length) { return said + at; }
    return said + branches.map(function (b) {
      var commits = byBranch[b];
      return (commits.length > 1 ? "commits " : "commit ") + commits.join(", ") + " on the " + b + " branch";
    }).join(" and ") + ", not at " + at + " (the sources below say which file was read where)";
  }

  // a scheme with no cell on a platform whose dispatch it has not read: say so, and why, as the engine's grid does
  function unreadHere(site, records, schemeId, place) {
    var scheme = records["scheme"][schemeId];
    var target = records["hardware-target"][place.targetId];
    var why = scheme && target && scheme.unread && scheme.unread[target.platform];
    if (!why) { return null; }
    var engine = records["engine"][scheme.engine];
    return el("article", { "class": "atlas-card atlas-card--unread" }, [
      el("h2", { "class": "atlas-card__title" }, [link(site, scheme, schemeId), " on "].concat(placeTitle(site, records, place))),
      el("p", {}, [el("span", { "class": "atlas-compare__gap", text: "Not derived" }), " " + (engine ? engine.name : scheme.engine) +
        "'s dispatch for this scheme on this platform has not been read, so the atlas gives no verdict here: " +
        "a gap in the atlas, not a refusal."]),
      el("p", { "class": "atlas-card__note" }, ["Why: " + why + " (", link(site, scheme, schemeId, "the scheme's page"), ")"])]);
  }

  // the engine that is this scheme's engine's plugin for the pick's platform (derive/plugins.py), if there is one
  function pluginOn(records, scheme, place) {
    var engine = scheme && records["engine"][scheme.engine];
    var target = records["hardware-target"][place.targetId];
    var pluginId = engine && target && engine.through_plugin && engine.through_plugin[target.platform];
    return pluginId ? { id: pluginId, record: records["engine"][pluginId], host: engine, platform: target.platform } : null;
  }

  // the sentence naming the plugin (WORDS.through_plugin), with both releases read
  function pluginSaid(site, plugin) {
    return fill(WORDS.through_plugin, { host: plugin.host.name, platform: plugin.platform,
                                        host_release: plugin.host.version_read || "a release not recorded",
                                        plugin: [link(site, plugin.record, plugin.id)],
                                        plugin_release: (plugin.record && plugin.record.version_read) || "a release not recorded" });
  }

  // where another engine answers for this hardware (the plugin here, the host off the plugin's platforms), about some
  // formats (answersFor says which): a link to the card of each of its schemes reading all of them that has a cell on
  // this hardware's target, for an engine-only link lands on whichever of its schemes the picker lists first, often for
  // another format, and a scheme with no cell here (no candidate list for this platform, or one not read) answers
  // nothing here; where none reads them, or none has a cell here, a sentence saying so and the engine's page (the
  // sentence only where the card has not said it already: saidNone, the plugin card's through_plugin_none; saidGap, the
  // away card's plugin_elsewhere_host_none, where the host has no dispatch recorded for this platform at all)
  function answersOf(site, records, cells, place, engineId, formats, layers, hardware, saidNone, saidGap, linked) {
    var engine = records["engine"][engineId];
    var name = engine ? engine.name : engineId;
    // "dense-layer" or "expert-layer": the schemes answering are those covering the scheme's layers
    var kind = WORDS.layer_schemes[layers];
    var reading = formats.length ? Object.keys(records["scheme"]).filter(function (id) {
      var s = records["scheme"][id];
      return s.engine === engineId && readsEvery(s, formats);
    }).sort(function (a, b) { return records["scheme"][a].name.localeCompare(records["scheme"][b].name); }) : [];
    var theirs = reading.filter(function (id) { return layersOf(records["scheme"][id]) === layers; });
    var here = theirs.filter(function (id) { return cells[id + "|" + place.targetId]; });
    var names = formats.map(function (f) { return f.name; });
    // "reads NVFP4"; of several, "reads both X and Y" (not one of them: each alone may be read here)
    var every = (names.length === 2 ? "both " : names.length > 2 ? "all of " : "") + joined(names);
    // the engine's page once a card: a scheme reading several formats may ask this once for each
    var page = function (said) {
      if (linked.page) { return said ? [said + "."] : []; }
      linked.page = true;
      return [said + (said ? "; what " : "What ") + name + " supports: ", link(site, engine, engineId, name + "\u2019s page")];
    };
    if (!theirs.length) {
      // an engine-only link would open whichever of its schemes the picker lists first, for another format: say so
      // instead, and send the reader to the engine's page, which lists every format it supports (said already where
      // through_plugin_none has, that is where no scheme of the engine reads them, whatever its layers)
      return page(formats.length && !(saidNone && !reading.length) ?
                  "No " + kind + " scheme of " + name + " in the atlas reads " + every : "");
    }
    if (!here.length) {
      return page(saidGap ? "" : "None of " + name + "\u2019s " + kind + " schemes reading " + every + " has a derived " +
                  "cell on this hardware, so the atlas cannot say what it does here (a gap, not a refusal)");
    }
    return [name + "\u2019s " + kind + " " + (here.length === 1 ? "scheme" : "schemes") + " reading " + joined(names) + " here: "].concat(
      [].concat.apply([], here.map(function (id, n) {
        return (n ? [", "] : []).concat([el("a", { href: "?" + new URLSearchParams({ engine: engineId, scheme: id, hardware: hardware }).toString(),
                                                   text: records["scheme"][id].name })]);
      })));
  }

  function joined(names) {
    return names.length > 1 ? names.slice(0, -1).join(", ") + " and " + names[names.length - 1] : names.join("");
  }

  // whether a scheme reads every one of the formats
  function readsEvery(scheme, formats) {
    return formats.every(function (f) { return scheme.formats.indexOf(f.id) >= 0; });
  }

  // the layers a scheme's cells describe: dense unless its record says experts (derive/plugins.py layers_of)
  function layersOf(scheme) {
    return scheme.layers || "dense";
  }

  // whether one of the plugin's own schemes reads the format: where none does, its answers are a gap, not a route
  function pluginReads(records, plugin, formatId) {
    return Object.keys(records["scheme"]).some(function (id) {
      var s = records["scheme"][id];
      return s.engine === plugin.id && s.formats.indexOf(formatId) >= 0;
    });
  }

  // every format the scheme reads, in its record's order: a scheme may read several (vLLM's compressed-tensors NVFP4
  // reads NVFP4 and llm-compressor checkpoints)
  function formatsRead(records, scheme) {
    return scheme.formats.map(function (id) { return records["format"][id]; }).filter(Boolean);
  }

  // The rule for which of the other engine's schemes answer for this scheme here: those covering the layers it covers
  // (an expert-layer scheme answers for no dense one, nor a dense one for an expert-layer one: a cell describes only
  // its scheme's layers), reading EVERY format it reads, with a cell on this target. One reading some of them loads none of its checkpoints as far as the records say:
  // vLLM-Gaudi's compressed-tensors W4A16 reads llm-compressor checkpoints, as vLLM's compressed-tensors NVFP4 does,
  // and no NVFP4. The records do not tell a container format from an element one, so every format counts alike. A
  // format none of the engine's schemes with a cell here reads is the gap, said for that format alone, and nothing is
  // named for the scheme's other formats, where a list would be read as a route; where there is none, one answer for
  // every format. Each with the comparison of every engine reading each format it is about; a scheme with no format
  // gets the engine's page alone. explain says the same (generators/derive/plugins.py answers_for).
  function answersFor(site, records, cells, place, engineId, scheme, hardware, saidNone, saidGap) {
    var linked = { page: false };
    var formats = formatsRead(records, scheme);
    var layers = layersOf(scheme);
    if (!formats.length) { return [el("p", {}, answersOf(site, records, cells, place, engineId, [], layers, hardware, saidNone, saidGap, linked))]; }
    var gaps = formats.filter(function (f) {
      return !Object.keys(records["scheme"]).some(function (id) {
        var s = records["scheme"][id];
        return s.engine === engineId && layersOf(s) === layers && readsEvery(s, [f]) && cells[id + "|" + place.targetId];
      });
    });
    // through_plugin_none has said a format none of the plugin's schemes reads; not that none reads all of them
    return (gaps.length ? gaps.map(function (f) { return [f]; }) : [formats]).map(function (about) {
      var said = answersOf(site, records, cells, place, engineId, about, layers, hardware, saidNone && gaps.length > 0, saidGap, linked);
      return el("p", {}, said.concat([].concat.apply([], about.map(function (format, n) {
        var every = "every engine reading " + format.name + " here";
        return (said.length || n ? [" \u00b7 "] : []).concat([el("a", {
          href: "?" + new URLSearchParams({ engine: ANY, format: format.id, hardware: hardware }).toString(),
          text: said.length || n ? every : capitalized(every) })]);
      }))));
    });
  }

  // a scheme of an engine that runs on this platform only through its plugin, an engine of its own: the answers are
  // that engine's, so send the reader there rather than say nothing is known
  function pluginHere(site, records, cells, schemeId, place, hardware) {
    var scheme = records["scheme"][schemeId];
    var plugin = pluginOn(records, scheme, place);
    if (!plugin) { return null; }
    var formats = formatsRead(records, scheme);
    // the formats none of the plugin's schemes reads, said once in one sentence ("reads NVFP4 or MXFP4": neither)
    var unread = formats.filter(function (f) { return !pluginReads(records, plugin, f.id); });
    return el("article", { "class": "atlas-card atlas-card--unread" }, [
      el("h2", { "class": "atlas-card__title" }, [link(site, scheme, schemeId), " on "].concat(placeTitle(site, records, place))),
      el("p", {}, [el("span", { "class": "atlas-compare__gap", text: "Through a plugin" }), " "].concat(
        pluginSaid(site, plugin), unread.length ? ["; "].concat(
          fill(WORDS.through_plugin_none, { plugin: plugin.record ? plugin.record.name : plugin.id,
                                            format: unread.map(function (f) { return f.name; }).join(" or ") })) : [],
        ["."]))].concat(answersFor(site, records, cells, place, plugin.id, scheme, hardware, true, false)));
  }

  // the mirror: a scheme of an engine that is another engine's platform plugin, on a platform the plugin does not add
  // (derive/plugins.py plugin_elsewhere): not a gap and not a verdict, for the host engine answers there
  function pluginAway(records, scheme, place) {
    var engine = scheme && records["engine"][scheme.engine];
    var target = records["hardware-target"][place.targetId];
    var relation = engine && target && engine.plugin_of;
    if (!relation || relation.platforms.indexOf(target.platform) >= 0 || relation.engine === scheme.engine) { return null; }
    return { id: scheme.engine, record: engine, hostId: relation.engine, host: records["engine"][relation.engine],
             platform: target.platform, relation: relation };
  }

  function capitalized(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

  // the sentences saying so (WORDS.plugin_elsewhere, then whether the host has dispatch of its own there)
  function awaySaid(site, away) {
    return fill(WORDS.plugin_elsewhere, { plugin: [link(site, away.record, away.id)], host: away.host ? away.host.name : away.hostId,
                                          platforms: away.relation.platforms.join(", "), platform: away.platform,
                                          plugin_release: away.record.version_read || "a release not recorded" }).concat(["; "],
      fill(away.relation.host_platforms.indexOf(away.platform) >= 0 ? WORDS.plugin_elsewhere_host : WORDS.plugin_elsewhere_host_none,
           { host: [link(site, away.host, away.hostId)], platform: away.platform }));
  }

  // why the plugin runs nowhere else: the record's steps, each with its source
  function awaySteps(site, records, away) {
    if (!away.relation.elsewhere.length) { return null; }
    return el("div", { "class": "atlas-card__note" }, [el("p", { text: "Why, step by step:" }),
      el("ol", {}, away.relation.elsewhere.map(function (step) {
        return el("li", {}, [step.text + " (", link(site, records["source"][step.source], step.source), ", " + step.locator + ")"]);
      }))]);
  }

  function awayHere(site, records, cells, schemeId, place, hardware) {
    var scheme = records["scheme"][schemeId];
    var away = pluginAway(records, scheme, place);
    if (!away) { return null; }
    return el("article", { "class": "atlas-card atlas-card--unread", "data-state": "plugin-elsewhere" }, [
      el("h2", { "class": "atlas-card__title" }, [link(site, scheme, schemeId), " on "].concat(placeTitle(site, records, place))),
      el("p", {}, [el("span", { "class": "atlas-compare__elsewhere", text: capitalized(WORDS.plugin_elsewhere_label) }), " "].concat(
        awaySaid(site, away), ["."]))].concat(
      answersFor(site, records, cells, place, away.hostId, scheme, hardware, false,
                 away.relation.host_platforms.indexOf(away.platform) < 0),
      [awaySteps(site, records, away)]));
  }

  // the engine release the answer describes, and any later release a finding compared with it (the answer still
  // describes the release read: a reader on the later one follows the finding to see whether it still applies)
  function releaseRead(site, records, engineId) {
    var engine = records["engine"][engineId];
    if (!engine || !engine.version_read) { return null; }
    var said = [engine.name + " " + engine.version_read];
    // an engine that runs another's kernels (ONNX Runtime GenAI on ONNX Runtime): the release its kernel records describe
    var from = engine.kernels_from && records["engine"][engine.kernels_from.engine];
    if (from) {
      said.push(", on ");
      said.push(link(site, from, engine.kernels_from.engine));
      said.push(" " + (from.version_read || "(release not stated)") + ", whose kernels run it (" + engine.name + " " +
        engine.version_read + " requires " + engine.kernels_from.requirement + ")");
    }
    // a platform plugin (plugin_of): it runs only inside its host engine, installed beside it
    var host = engine.plugin_of && records["engine"][engine.plugin_of.engine];
    if (host) {
      said.push(", ");
      said = said.concat(fill(WORDS.plugin_of, { host: [link(site, host, engine.plugin_of.engine)],
                                                 platforms: engine.plugin_of.platforms.join(", ") }));
    }
    (engine.later_releases || []).forEach(function (later) {
      said.push("; ");
      said = said.concat(fill(WORDS.later_release, { release: later.release,
        finding: link(site, records["finding"][later.finding], later.finding, "what differs") }));
    });
    return said;
  }

  // what meets (or lacks) a condition; how that default install is installed, often a paragraph, folded under it
  function metBy(assumed) {
    var said = el("span", {}, termed(assumed.install));
    if (!assumed.route) { return said; }
    return el("span", {}, [said, el("details", { "class": "atlas-why-more atlas-card__route" }, [
      el("summary", { text: "which install" }), el("span", { text: assumed.route })])]);
  }

  // the cell's traps that reach the pick: a trap limited to some of the target's parts applies to those parts only
  function trapsAt(cell, place) {
    return cell.traps.filter(function (t) {
      var parts = partsOf(cell, t);
      return place.kind !== "part" || !parts.length || parts.indexOf(place.id) >= 0;
    });
  }

  // the cell's answer on the picked part where the part needs more than the target (derive/parts.py), else
  // null; a target pick answers for the target
  function onPart(cell, place) {
    if (place.kind !== "part") { return null; }
    return (cell.on_parts || []).filter(function (p) { return p.part === place.id; })[0] || null;
  }

  function verdictHere(cell, place) {
    var part = onPart(cell, place);
    return part ? part.verdict : cell.verdict;
  }

  // An expert-layer answer's whole checkpoint (derive/whole_checkpoint.py, served as the cell's whole_checkpoint): the
  // worse, in RANK's order (the verdict vocabulary's, model/verdicts.worse), of its own verdict and that of the scheme
  // of the checkpoint's other linear layers, here; on a part pick each cell's answer on that part. Null for any other
  // cell; `verdict` null where the other scheme has no cell on the target.
  function wholeHere(cells, cell, place) {
    var whole = cell.whole_checkpoint;
    if (!whole) { return null; }
    var other = cells[whole.scheme + "|" + place.targetId];
    if (!other) { return { scheme: whole.scheme, verdict: null }; }
    var mine = verdictHere(cell, place), theirs = verdictHere(other, place);
    var worse = RANK.indexOf(theirs) > RANK.indexOf(mine) ? theirs : mine;
    var part = onPart(other, place);
    // the other cell's own words where its answer on the part is the one shown (its conditions there), else the target's
    var why = part && part.verdict === theirs && theirs === "runs-if" ? part.conditions.join("; ") : whole.why;
    // "Falls back, if" where a fallback cell deciding it is one, or a runs-if cell fails or is refused without its
    // conditions on a default install (derive/whole_checkpoint.py fallback_if, fails_without)
    var fallbackIf = worse === "fallback" && [cell, other].some(function (c) {
      var here = verdictHere(c, place);
      return (here === worse && verdictLabel(c, worse, onPart(c, place)) === FALLBACK_IF) || (here === "runs-if" && !onPart(c, place) &&
        (c.otherwise || []).some(function (s) { return !s.off_default && (LOADS.indexOf(s.verdict) < 0 || s.elsewhere); }));
    });
    // what a default install gets where a cell's kernel is not its default's and that is worse (by_default): the other
    // layers' lead first; a part's own answer has no lead here
    var leads = { others: onPart(other, place) ? null : defaultLead(other), experts: onPart(cell, place) ? null : defaultLead(cell) };
    var gets = { others: leads.others ? leads.others.gets : theirs, experts: leads.experts ? leads.experts.gets : mine };
    var worst = RANK.indexOf(gets.others) >= RANK.indexOf(gets.experts) ? gets.others : gets.experts;
    var side = ["others", "experts"].filter(function (s) { return gets[s] === worst && leads[s]; })[0];
    var byDefault = side && RANK.indexOf(worst) > RANK.indexOf(worse) ? { layers: side, verdict: worst } : null;
    // a runs-if other cell whose kernel a default install does not select is said by its lead (WholeCheckpoint.others_lead)
    var leadOf = theirs === "runs-if" && leads.others ? other : null;
    return { scheme: whole.scheme, verdict: worse, others: theirs, why: why, byDefault: byDefault, leadOf: leadOf,
      both: mine === "runs-if" && theirs === "runs-if",
      // what the expert layers need to run at all (WholeCheckpoint.experts_why); on a part, its own answer's conditions
      expertsWhy: onPart(cell, place) ? onPart(cell, place).conditions.join("; ") : whole.experts_why ||
        (cell.conditions || []).join("; "),
      label: (fallbackIf ? FALLBACK_IF : VERDICTS[worse] || [worse])[0].replace(",", ""),
      decided: mine === theirs ? "both" : worse === theirs ? "others" : "experts" };
  }

  // the default install's line of a whole checkpoint (WORDS.whole_checkpoint_default): whose lead names the kernel a
  // default install selects, and the whole checkpoint's verdict there as a badge
  function wholeDefault(byDefault) {
    return fill(WORDS.whole_checkpoint_default, { layers: WORDS.whole_checkpoint_layers[byDefault.layers],
      verdict: el("span", { "class": verdictClass(byDefault.verdict) + " atlas-whole__default",
        text: (VERDICTS[byDefault.verdict] || [byDefault.verdict])[0].replace(",", "") }) });
  }

  // the whole checkpoint as explain says it (derive/wording.py whole_state): the other scheme linked, then its answer
  function wholeSaid(site, records, found, engine, hardware) {
    var scheme = link(site, records["scheme"][found.scheme], found.scheme);
    if (!found.verdict) { return fill(WORDS.whole_checkpoint_none, { scheme: scheme }); }
    var state = WORDS.whole_checkpoint_state[found.others];
    state = found.leadOf ? fill(WORDS.whole_checkpoint_state["runs-if-lead"], { why: kernelLead(site, records, found.leadOf) }) :
      [found.why || found.others === "runs" ? fillText(state, { why: found.why }) :
        fillText(state, { why: "" }).replace(/[: ]+$/, "")];
    if (found.both) { state = state.concat(fill(WORDS.whole_checkpoint_both, { why: found.expertsWhy })); }
    return [el("span", { "class": verdictClass(found.verdict), text: found.label }),
      " (" + WORDS.whole_checkpoint_decided[found.decided] + "): "].concat(
      fill(WORDS.whole_checkpoint, { scheme: scheme, state: state }),
      found.byDefault ? wholeDefault(found.byDefault) : [], [" (", el("a", { "class": "atlas-whole__answer",
        href: "?" + new URLSearchParams({ engine: engine, scheme: found.scheme, hardware: hardware }).toString(),
        text: "its answer" }), ")"]);
  }

  var SEVERITIES = ["blocker", "major", "minor"];

  // a comparison row's traps: how many, the worst severity, and whether one is silent; the full answer (`answer`, the
  // verdict's link) lists them, so the count links there: their names in a tooltip alone never reached a phone. On
  // a target pick, the traps limited to some of its parts (api: trap_parts) are counted apart, with those parts (a
  // blocker on the GB10 alone does not hit the RTX 5090), as the answer card says them
  function trapSummary(cell, place, records, answer) {
    var at = trapsAt(cell, place);
    var groups = [{ parts: "", ids: [] }];
    at.forEach(function (t) {
      var parts = trapParts(cell, t, place, records);
      var group = groups.filter(function (g) { return g.parts === parts; })[0];
      if (!group) { group = { parts: parts, ids: [] }; groups.push(group); }
      group.ids.push(t);
    });
    var shown = groups.filter(function (g) { return g.ids.length; });
    if (!shown.length) { return ["—"]; }
    var said = [];
    shown.forEach(function (g, n) {
      var traps = g.ids.map(function (t) { return records["gotcha"][t]; }).filter(Boolean);
      var worst = traps.map(function (t) { return t.severity; }).sort(function (a, b) {
        return SEVERITIES.indexOf(a) - SEVERITIES.indexOf(b); })[0];
      var silent = traps.some(function (t) { return t.silent; });
      if (n) { said.push(el("br")); }
      said.push(el("a", { "class": "atlas-compare__traps", "data-parts": g.parts, href: answer,
        title: traps.map(function (t) { return t.name; }).join("; ") }, [
        el("span", { "class": "atlas-severity atlas-severity--" + worst, text: worst }),
        silent ? el("span", { "class": "atlas-silent", text: "silent" }) : null,
        " " + g.ids.length + (g.ids.length === 1 ? " trap" : " traps"),
        g.parts ? el("span", { "class": "atlas-compare__trap-parts", text: " " + fillText(WORDS.trap_parts, { parts: g.parts }) }) : null]));
    });
    return said;
  }

  // A comparison row placed on the pick: its cell's verdict here (a part's own answer where it has one) and, for an
  // expert-layer scheme, its whole checkpoint here (wholeHere)
  function placedRow(cells, row, place) {
    row.verdict = verdictHere(row.cell, place);
    row.part = onPart(row.cell, place);
    row.whole = wholeHere(cells, row.cell, place);
    return row;
  }

  // What a row is ranked and counted by, as the row shows it: an expert-layer row by its whole checkpoint (what loading
  // the checkpoint gets, the badge under its own) where the other layers' scheme has a cell here, any other row by its
  // own badge; a fallback a default install does not reach ("Falls back if") after one it reaches. `whole`: the whole
  // checkpoint's label is not the row's own, so the count it lands in differs from the row's own badge
  function rankedAs(row) {
    var own = row.verdict || row.cell.verdict;
    var ownLabel = verdictLabel(row.cell, own, row.part)[0].replace(",", "");
    var byWhole = !!(row.whole && row.whole.verdict);
    var verdict = byWhole ? row.whole.verdict : own;
    var label = byWhole ? row.whole.label : ownLabel;
    return { verdict: verdict, label: label, whole: label !== ownLabel,
      rank: RANK.indexOf(verdict) * 2 + (label === FALLBACK_IF[0].replace(",", "") ? 1 : 0) };
  }

  // the verdicts of these rows (each a derived cell), best first, counted as they are ranked (rankedAs), with how many
  // of each are expert-layer rows counted by a whole checkpoint that reads otherwise than their own badge:
  // [{verdict, label, count, whole}]
  function tallyOf(rows) {
    var tally = [];
    rows.map(rankedAs).sort(function (a, b) { return a.rank - b.rank; }).forEach(function (shown) {
      var last = tally[tally.length - 1];
      if (!last || last.label !== shown.label) {
        last = { verdict: shown.verdict, label: shown.label, count: 0, whole: 0 };
        tally.push(last);
      }
      last.count += 1;
      last.whole += shown.whole ? 1 : 0;
    });
    return tally;
  }

  function tallySpans(tally) {
    return tally.map(function (t, n) {
      return el("span", {}, [n ? " · " : "", el("span", { "class": verdictClass(t.verdict), text: t.label }), " " + t.count,
        t.whole ? el("span", { "class": "atlas-compare__tally-whole", text: " (" + t.whole + " by the whole checkpoint)" }) : null]);
    });
  }

  // said after a tally that counts an expert-layer row by a whole checkpoint that reads otherwise than its own badge,
  // so the count and the row's badge are not read as disagreeing
  var TALLY_WHOLE = " An expert-layer scheme is ranked and counted by its whole checkpoint (the worse of its expert " +
    "layers' verdict and that of its checkpoint's other linear layers), shown under its own verdict.";

  // The formats this format's record names as related ("easily confused with or derived from") that some scheme
  // reads, in the record's order, each with its own tally on this place: the weight-only twin of a W4A4 format answers
  // a reader who picked the name on their checkpoint (MXFP4 for a weight-only gpt-oss checkpoint) where it does not.
  function relatedOnPlace(records, cells, format, formats, place, hardware) {
    var read = {};
    formats.forEach(function (f) { read[f.id] = f; });
    var found = ((records["format"][format.id] || {}).related || []).filter(function (id) {
      return id !== format.id && read[id];
    }).map(function (id) { return read[id]; }).map(function (f) {
      var rows = f.schemes.map(function (s) { return { cell: cells[s.id + "|" + place.targetId] }; }).filter(function (row) {
        return row.cell; }).map(function (row) { return placedRow(cells, row, place); });
      return { format: f, tally: tallyOf(rows) };
    }).filter(function (r) { return r.tally.length; });
    if (!found.length) { return null; }
    return el("p", { "class": "atlas-compare__related" }, ["Related formats here, each a format of its own: "].concat(
      found.map(function (r, n) {
        return el("span", {}, [n ? "; " : "", el("a", { href: "?" + new URLSearchParams(
          { engine: ANY, format: r.format.id, hardware: hardware }).toString(), text: r.format.name }), ": "].concat(tallySpans(r.tally)));
      }), ["."]));
  }

  function renderComparison(answer, site, records, cells, format, hardware, formats) {
    answer.textContent = "";
    SEEN = {};
    var place = placeOf(records, hardware);
    var all = (format ? format.schemes : []).map(function (s) {
      return { scheme: s, cell: cells[s.id + "|" + place.targetId] };
    });
    var rows = all.filter(function (row) { return row.cell; });
    rows.forEach(function (row) { placedRow(cells, row, place); });
    // a scheme whose engine has no candidate list for this platform: a gap, shown as one rather than left out
    var gaps = all.filter(function (row) { return !row.cell; });
    // ... except where the engine runs here only through its plugin, whose own schemes are rows of their own
    gaps.forEach(function (row) { row.plugin = pluginOn(records, row.scheme, place); });
    var viaPlugin = gaps.filter(function (row) { return row.plugin; });
    gaps = gaps.filter(function (row) { return !row.plugin; });
    // ... and the mirror: a plugin's scheme on a platform the plugin does not add, where the host answers instead
    // (counted apart, as neither a gap nor a verdict)
    gaps.forEach(function (row) { row.away = pluginAway(records, row.scheme, place); });
    var away = gaps.filter(function (row) { return row.away; });
    gaps = gaps.filter(function (row) { return !row.away; });
    if (!rows.length && !gaps.length && !viaPlugin.length && !away.length) {
      answer.appendChild(el("p", { text: "The atlas has no derived cell for this choice." }));
      return;
    }
    var engineName = function (row) { return records["engine"][row.scheme.engine] ? records["engine"][row.scheme.engine].name : row.scheme.engine; };
    // an expert-layer row ranks by its whole checkpoint (wholeHere), what loading the checkpoint gets: one whose experts
    // fall back and whose other layers are refused is not the best answer on the list; the tally counts as it ranks
    var ranked = function (row) { return rankedAs(row).rank; };
    rows.sort(function (a, b) {
      return ranked(a) - ranked(b) || engineName(a).localeCompare(engineName(b)) ||
        a.scheme.name.localeCompare(b.scheme.name);
    });
    [gaps, viaPlugin, away].forEach(function (list) {
      list.sort(function (a, b) { return engineName(a).localeCompare(engineName(b)) || a.scheme.name.localeCompare(b.scheme.name); });
    });
    var tally = tallyOf(rows);
    var box = el("article", { "class": "atlas-compare", "data-format": format.id });
    box.appendChild(el("h2", { "class": "atlas-card__title" },
      [link(site, records["format"][format.id], format.id), " on "].concat(placeTitle(site, records, place))));
    box.appendChild(el("p", { "class": "atlas-compare__tally" }, [
      (all.length === 1 ? "The one scheme" : "Of the " + all.length + " schemes") + " (engine layers) that read " +
      format.name + ": "].concat(tallySpans(tally),
    gaps.length ? [(tally.length ? " · " : ""), el("span", { "class": "atlas-compare__gap", text: "not derived" }), " " + gaps.length] : [],
    viaPlugin.length ? [(tally.length || gaps.length ? " · " : ""), el("span", { "class": "atlas-compare__gap", text: "through a plugin" }),
      " " + viaPlugin.length] : [],
    away.length ? [(tally.length || gaps.length || viaPlugin.length ? " · " : ""), el("span", { "class": "atlas-compare__elsewhere",
      text: WORDS.plugin_elsewhere_label }), " " + away.length] : [],
    [". Each verdict links to its full answer: conditions, traps and sources."],
    tally.some(function (t) { return t.whole; }) ? [TALLY_WHOLE] : [])));
    var related = relatedOnPlace(records, cells, format, formats || [], place, hardware);
    if (related) { box.appendChild(related); }
    var names = ["Engine", "Scheme", "Verdict", "Kernel", "Computes in", "Traps"];
    var body = el("tbody", {}, rows.map(function (row) {
      var cell = row.cell;
      var answer = "?" + new URLSearchParams({ engine: row.scheme.engine, scheme: row.scheme.id, hardware: hardware }).toString();
      var answerLink = el("a", { "class": "atlas-compare__answer", href: answer }, [
        el("span", { "class": verdictClass(row.verdict), text: verdictLabel(cell, row.verdict, row.part)[0].replace(",", "") })]);
      var disagrees = cell.published.some(function (p) { return !p.agrees; });
      var why = whyNotShown(site, records, cell);  // a refusal's reason one click from its verdict, as in the support tables
      // an expert-layer scheme's row: its own verdict, then the whole checkpoint's, linked to the other layers' answer
      var whole = row.whole;
      var wholeMark = whole ? el("span", { "class": "atlas-compare__whole", "data-verdict": whole.verdict || "" }, [el("br"),
        "whole checkpoint: "].concat(whole.verdict ? [el("a", { href: "?" + new URLSearchParams({ engine: row.scheme.engine,
          scheme: whole.scheme, hardware: hardware }).toString(), title: fillText(WORDS.whole_checkpoint_decided[whole.decided], {}) },
          [el("span", { "class": verdictClass(whole.verdict), text: whole.label })])].concat(whole.byDefault ? [
          // a default install gets worse (WholeCheckpoint.by_default): the row says so, the answer says why
          "; by default: ", el("span", { "class": verdictClass(whole.byDefault.verdict) + " atlas-compare__whole-default",
            text: (VERDICTS[whole.byDefault.verdict] || [whole.byDefault.verdict])[0].replace(",", "") })] : []) :
          ["not derived"])) : null;
      var routeSteps = cell.computes_steps || [];
      // a fallback's whole note is its answer's; the table says it short, from typed fields (api: computes_short)
      var computes = (cell.computes_as ? fallbackShort(cell) : "") || (routeSteps.length > 1 || (routeSteps.length === 1 && routeSteps[0].precision) ?
        routeSteps.map(function (step) { return stepComputes(records, step, true); }).join("; then ") : "") ||
        (cell.computes_in || []).map(function (f) { return computedIn(records, f); }).join(" or ") || (RUNS.indexOf(cell.verdict) >= 0 ? "as the scheme specifies" : "");
      var values = [
        [link(site, records["engine"][row.scheme.engine], row.scheme.engine)],
        [link(site, row.scheme, row.scheme.id)],
        [answerLink, disagrees ? el("span", { "class": "atlas-compare__disputed", title: "the engine's published table says otherwise", text: " ‡" }) : null,
          onPart(cell, place) ? el("span", { "class": "atlas-compare__part", title: onPart(cell, place).conditions.join("; "), text: " †" }) : null,
          wholeMark,
          why.length ? el("details", { "class": "atlas-why-more atlas-compare__why" }, [el("summary", { text: "why" })].concat(why)) : null],
        cell.kernel ? kernelLead(site, records, cell) : ["—"],
        [computes || "—"].concat(emulatedHere(site, records, cell, place).length ? [el("span", {
          "class": "atlas-compare__emulated", title: "the format map rates it emulated on this pick (the full answer says where)",
          text: " (emulated here)" })] : []),
        trapSummary(cell, place, records, answer)];
      return el("tr", { "data-verdict": row.verdict, "data-scheme": row.scheme.id }, values.map(function (v, n) {
        return el("td", { "data-label": names[n] }, v);
      }));
    }).concat(gaps.map(function (row) {
      var values = [[link(site, records["engine"][row.scheme.engine], row.scheme.engine)], [link(site, row.scheme, row.scheme.id)],
        [el("span", { "class": "atlas-compare__gap", title: "the atlas records no dispatch rule of this engine for this platform",
          text: "not derived" })], ["—"], ["—"], ["—"]];
      return el("tr", { "data-verdict": "", "data-scheme": row.scheme.id }, values.map(function (v, n) {
        return el("td", { "data-label": names[n] }, v);
      }));
    })).concat(viaPlugin.map(function (row) {
      var values = [[link(site, records["engine"][row.scheme.engine], row.scheme.engine)], [link(site, row.scheme, row.scheme.id)],
        [el("span", { "class": "atlas-compare__gap", title: "the engine runs on this platform through its plugin",
          text: "through " + (row.plugin.record ? row.plugin.record.name : row.plugin.id) +
            (pluginReads(records, row.plugin, format.id) ? "" : ": not derived") })], ["—"], ["—"], ["—"]];
      return el("tr", { "data-verdict": "", "data-scheme": row.scheme.id }, values.map(function (v, n) {
        return el("td", { "data-label": names[n] }, v);
      }));
    })).concat(away.map(function (row) {
      var values = [[link(site, records["engine"][row.scheme.engine], row.scheme.engine)], [link(site, row.scheme, row.scheme.id)],
        [el("a", { "class": "atlas-compare__answer", href: "?" + new URLSearchParams(
          { engine: row.scheme.engine, scheme: row.scheme.id, hardware: hardware }).toString() }, [
          el("span", { "class": "atlas-compare__elsewhere", title: WORDS.plugin_elsewhere_label,
            text: fillText(WORDS.plugin_elsewhere_row, { plugin: row.away.record.name, platforms: row.away.relation.platforms.join(", ") }) })])],
        ["—"], ["—"], ["—"]];
      return el("tr", { "data-verdict": "", "data-state": "plugin-elsewhere", "data-scheme": row.scheme.id }, values.map(function (v, n) {
        return el("td", { "data-label": names[n] }, v);
      }));
    })));
    var table = el("table", { "data-atlas-stack": "" }, [
      el("thead", {}, [el("tr", {}, names.map(function (name) { return el("th", { text: name }); }))]), body]);
    box.appendChild(el("div", { "class": "md-typeset__table" }, [table]));
    if (rows.some(function (row) { return row.cell.published.some(function (p) { return !p.agrees; }); })) {
      box.appendChild(el("p", { "class": "atlas-card__note", text: "‡ the engine's published table says otherwise; the full answer shows the finding that settles it." }));
    }
    if (rows.some(function (row) { return onPart(row.cell, place); })) {
      box.appendChild(el("p", { "class": "atlas-card__note", text: "† on this part the answer first needs more than " +
        "on its target (a build for its host CPU or its own compute capability); the full answer says what." }));
    }
    var hosts = {};
    viaPlugin.forEach(function (row) { hosts[row.scheme.engine] = row.plugin; });
    Object.keys(hosts).sort().forEach(function (host) {
      var plugin = hosts[host];
      box.appendChild(el("p", { "class": "atlas-card__note" }, ["Through " + (plugin.record ? plugin.record.name : plugin.id) + ": "].concat(
        pluginSaid(site, plugin), pluginReads(records, plugin, format.id) ? [] : ["; "].concat(
          fill(WORDS.through_plugin_none, { plugin: plugin.record ? plugin.record.name : plugin.id, format: format.name })),
        ["."])));
    });
    var plugins = {};
    away.forEach(function (row) { plugins[row.scheme.engine] = row.away; });
    Object.keys(plugins).sort().forEach(function (id) {
      box.appendChild(el("p", { "class": "atlas-card__note" }, [capitalized(WORDS.plugin_elsewhere_label) + ": "].concat(
        awaySaid(site, plugins[id]), ["; the row links to why."])));
    });
    if (gaps.length) {
      box.appendChild(el("p", { "class": "atlas-card__note", text: "Not derived: the atlas records none of that engine's " +
        "dispatch rules for this platform, so it cannot say; this is a gap in the atlas, not a refusal." }));
    }
    answer.appendChild(box);
  }

  function render(answer, site, records, cells, schemeId, hardware) {
    answer.textContent = "";
    SEEN = {};
    var place = placeOf(records, hardware);
    var targetId = place.targetId;
    var cell = cells[schemeId + "|" + targetId];
    if (!cell) {
      answer.appendChild(unreadHere(site, records, schemeId, place) || pluginHere(site, records, cells, schemeId, place, hardware) ||
        awayHere(site, records, cells, schemeId, place, hardware) ||
        el("p", { text: "The atlas has no derived cell for this choice." }));
      return;
    }
    var scheme = records["scheme"][schemeId];
    var part = onPart(cell, place);
    var verdict = part ? part.verdict : cell.verdict;
    var label = verdictLabel(cell, verdict, part);
    // a refusal the engine raises (its message, or a capability gate) versus a target none of its kernels or
    // backends serves: then it raises nothing on this hardware, and may run the model elsewhere (MLX on the host CPU)
    if (verdict === "refused" && !cell.failure_message && !cell.gate) { label = [label[0], NO_KERNEL_HERE]; }
    var card = el("article", { "class": "atlas-card", "data-verdict": verdict });
    card.appendChild(el("h2", { "class": "atlas-card__title" }, [link(site, scheme, schemeId), " on "].concat(placeTitle(site, records, place))));
    card.appendChild(el("p", { "class": "atlas-card__verdict" }, [
      el("span", { "class": verdictClass(verdict), text: label[0] }), label[1] ? " " + label[1] : ""]));
    var traps = trapsAt(cell, place);
    // a verdict is about what the engine selects; a blocker that stops it or corrupts its output is said beside it
    var blockers = traps.filter(function (t) { return records["gotcha"][t] && records["gotcha"][t].severity === "blocker"; });
    if (blockers.length) { card.appendChild(blockerLine(site, records, cell, blockers, place)); }
    // the verdict above is the expert layers' own; the model loads only where the checkpoint's other layers load too
    var whole = wholeHere(cells, cell, place);
    if (whole) {
      card.appendChild(el("p", { "class": "atlas-card__whole", "data-verdict": whole.verdict || "" },
        ["Whole checkpoint: "].concat(wholeSaid(site, records, whole, cell.engine, hardware))));
    }
    if (part) {
      // what this part needs beyond the target (its host CPU, its own compute capability) comes before the rest
      card.appendChild(section("First, on this part", [
        el("ul", { "class": "atlas-card__host" }, part.needs.map(function (need) {
          return el("li", {}, [el("span", { text: need.said }), " (", link(site, records["source"] && records["source"][need.source],
            need.source), ")"]);
        })),
        el("p", { "class": "atlas-card__note", text: "The target's own answer, for its parts that need none of this: " +
          verdictLabel(cell, cell.verdict)[0].replace(",", "") + "." })]));
    }
    var facts = el("dl", { "class": "atlas-card__facts" });
    if (cell.kernel) {
      facts.appendChild(el("dt", { text: "Kernel" }));
      facts.appendChild(el("dd", {}, kernelLead(site, records, cell)));
    }
    var computes = cell.computes_as || (cell.computes_in || []).map(function (f) { return computedIn(records, f); }).join(" or ");
    var steps = cell.computes_as ? null : computesSteps(site, records, cell);
    if (steps) {
      facts.appendChild(el("dt", { text: "Computes in" }));
      facts.appendChild(el("dd", {}, [(cell.computes_steps.length > 1 ? "by kernel, in the engine's order (the conditions " +
        "below say which runs when):" : ""), steps].concat(emulatedHere(site, records, cell, place),
        unknownHere(site, records, cell, place))));
    } else if (computes) {
      facts.appendChild(el("dt", { text: "Computes in" }));
      facts.appendChild(el("dd", {}, termed(computes).concat(emulatedHere(site, records, cell, place),
        unknownHere(site, records, cell, place))));
    }
    if (cell.known_by) {
      facts.appendChild(el("dt", { text: "Known from" }));
      var known = [knownBy(records, cell)];
      (cell.evidence || []).forEach(function (id) {
        var record = records["observation"] && records["observation"][id];
        if (record) { known.push(" ("); known.push(link(site, record, id)); known.push(")"); }
      });
      facts.appendChild(el("dd", {}, known.concat([inferredSteps(site, records, cell)])));
    }
    var release = releaseRead(site, records, cell.engine);
    if (release) {
      facts.appendChild(el("dt", { text: "Release" }));
      facts.appendChild(el("dd", {}, release));
    }
    facts.appendChild(el("dt", { text: "Covers" }));
    facts.appendChild(el("dd", { text: WORDS.covers[(records["scheme"][cell.scheme] || {}).layers] || WORDS.covers.dense }));
    if (facts.childNodes.length) { card.appendChild(facts); }
    // conditions the defaults (install and settings) meet are listed once, under their own heading
    var met = (cell.assumes || []).concat(cell.opt_in || []).map(function (a) { return a.condition; });
    var open = (cell.conditions || []).filter(function (c) { return met.indexOf(c) < 0; });
    // numbered where the collapsed line on what happens without them names them by number
    var numbered = numbersConditions(cell, open) ? open : [];
    if (open.length) {
      // on a cell that runs whichever way, the conditions only choose the kernel
      // (where a default install selects another kernel, the conditions are those of the opt-in kernel)
      var title = cell.verdict !== "runs" ? "Conditions" : defaultLead(cell) ? "The opt-in kernel when" : "This kernel when";
      card.appendChild(section(title, [el(numbered.length ? "ol" : "ul", {}, open.map(function (c) { return el("li", {}, termed(c)); }))]));
    }
    if (cell.opt_in && cell.opt_in.length) {
      card.appendChild(section("Only if you opt in", [el("ul", {}, cell.opt_in.map(function (a) {
        return el("li", {}, [el("span", {}, termed(a.condition)), ": ", metBy(a)]);
      }))]));
    }
    // a condition the defaults meet for a kernel the engine reaches only further down its order (when the conditions
    // above fail) is said with that kernel, after what happens then: not as something the answer's kernel needs
    var further = furtherDown(cell);
    var here = (cell.assumes || []).filter(function (a) { return !further[a.condition]; });
    if (here.length) {
      card.appendChild(section("Met by the defaults (default install and settings)", [el("ul", {}, here.map(function (a) {
        return el("li", {}, [el("span", {}, termed(a.condition)), ": ", metBy(a)]);
      }))]));
    }
    // values of a setting that filters the engine's list (vLLM's --linear-backend) with which this running cell runs
    // worse: derived from the same walk of the filtered list (cells.py, _worse_settings), never typed by hand
    if (cell.worse && cell.worse.length) {
      card.appendChild(section("Settings that make this worse", [el("ul", { "class": "atlas-card__worse" }, cell.worse.map(function (w) {
        var what = (VERDICTS[w.verdict] || [w.verdict])[0].replace(",", "").toLowerCase();
        // a reason names its kernel as the engine's list does ('kernel-id: message'): linked, as under "Why not"; one
        // reason is said on the line, several (a refusal lists every candidate's) each on its own, in the engine's order
        var reasons = w.verdict === "fallback" ? [] : w.reasons;
        var detail = w.verdict === "fallback" ? [": " + w.computes_as] : reasons.length === 1 ?
          [": "].concat(Array.prototype.slice.call(reasonItem(site, records, reasons[0]).childNodes)) : reasons.length ?
          [", " + reasons.length + " reasons in the engine's order:",
            el("ol", { "class": "atlas-card__worse-reasons" }, reasons.map(function (r) { return reasonItem(site, records, r); }))] : [];
        // a value whose kernel needs what the default install lacks: that install passes it over (cells.py), so say
        // so, name the kernel and what the value gets once the need is met (runs, or fails even then)
        var given = { "runs-if": "it runs", "runs": "it runs", "fails-at-runtime": "it still fails at run time",
                      "fallback": "it still falls back" }[w.given_it] || "not known";
        var passed = w.passed_over ? [" on the default install, which lacks what ", link(site, records["kernel"][w.passed_over],
          w.passed_over), " needs (where that is met, " + given + ")"] : [];
        return el("li", {}, [el("code", { text: w.setting }), ": " + what].concat(passed,
          w.kernel ? [" (the engine selects ", link(site, records["kernel"][w.kernel], w.kernel), ")"] : [], detail));
      }))]));
    }
    // what the kernels it runs on need that the engine does not check when it selects them: the verdict assumes it
    var own = ownKernels(cell);
    var needs = (cell.needs || []).filter(function (n) { return !n.kernel || own.indexOf(n.kernel) >= 0; });
    if (needs.length) {
      card.appendChild(section("Also needed at run time", [
        el("p", { "class": "atlas-card__note", text: "The engine does not check this when it selects the kernel; the " +
          "verdict above assumes it." }), needItems(site, records, needs)]));
    }
    if (cell.otherwise && cell.otherwise.length) { card.appendChild(otherwiseBlock(site, records, cell.otherwise, cell.needs || [], own, numbered)); }
    var later = (cell.assumes || []).filter(function (a) { return further[a.condition]; });
    if (later.length) {
      card.appendChild(section("Further down the engine's order, the defaults meet", [el("ul", { "class": "atlas-card__further" }, later.map(function (a) {
        var of = [];
        further[a.condition].forEach(function (k, n) { of.push(n ? " and " : ""); of.push(link(site, records["kernel"][k], k)); });
        return el("li", {}, [el("span", { text: a.condition }), " (a condition of "].concat(of, ["): ", metBy(a)]));
      }))]));
    }
    var why = whyNotShown(site, records, cell);
    if (why.length) { card.appendChild(section("Why not (in the engine's order)", why)); }
    cell.published.filter(function (p) { return !p.agrees; }).forEach(function (p) {
      var matrix = records["support-matrix"][p.matrix];
      var finding = p.finding ? records["finding"][p.finding] : null;
      var body = [el("p", {}, fill(WORDS.disagrees, { matrix: link(site, matrix, p.matrix),
        verdict: el("strong", { text: p.symbol + " (" + p.says + ")" }), row: p.row, by: "×", column: p.column }).concat(["."]))];
      if (finding) {
        var findingLink = link(site, finding, p.finding);
        findingLink.setAttribute("class", "atlas-finding-link");
        body.push(el("p", {}, [el("strong", {}, [findingLink]), ": ", finding.conclusion]));
      }
      card.appendChild(el("aside", { "class": "atlas-card__finding" }, [section("The publisher disagrees", body)]));
    });
    var agreeing = cell.published.filter(function (p) { return p.agrees; });
    if (agreeing.length) {
      card.appendChild(el("p", { "class": "atlas-card__agrees" }, ["Agrees with "].concat(agreeing.map(function (p, n) {
        // the publisher's symbol with its reading: a symbol alone (an emoji) is a box where the font lacks it
        return el("span", {}, [n ? "; " : "", link(site, records["support-matrix"][p.matrix], p.matrix), " (" + p.symbol + " " + p.says + ")"]);
      }))));
    }
    if (traps.length) {
      card.appendChild(section("Traps that apply", [el("ul", { "class": "atlas-card__traps" }, traps.map(trapItem))]));
    }
    var engine = records["engine"][cell.engine];
    var wide = engine && engine.engine_wide_traps ? engine.engine_wide_traps : [];
    if (wide.length) {
      card.appendChild(section("Engine-wide traps", [
        el("p", { "class": "atlas-card__note", text: "Not specific to this format or hardware: they concern every answer of " +
          engine.name + "." }),
        el("ul", { "class": "atlas-card__engine-traps" }, wide.map(trapItem))]));
    }
    if (cell.sources.length) {
      var grouped = sourceGroups(cell);
      var shownTraps = traps;
      var seen = {};
      // by what each backs (api: source_groups, from the record fields that cite them); a source that backs several
      // statements is listed under each, in full the first time
      var body = (cell.source_groups || []).filter(function (g) {
        return g.backs !== "passed-over" && (g.backs !== "trap" || shownTraps.indexOf(g.subject) >= 0);
      }).map(function (g) {
        return el("div", { "class": "atlas-card__source-group", "data-backs": g.backs }, [
          el("p", { "class": "atlas-card__source-backs" }, backsLabel(g)),
          el("ul", { "class": "atlas-card__sources" }, g.sources.map(function (s) {
            var again = seen[s];
            seen[s] = true;
            return again ? el("li", { "class": "atlas-card__source-again" }, [link(site, records["source"][s], s),
              el("small", { text: " (also above)" })]) : sourceItem(s);
          }))]);
      });
      if (grouped.passed.length) {
        var count = grouped.passed.reduce(function (n, g) { return n + g.sources.length; }, 0);
        body.push(el("details", { "class": "atlas-card__sources-passed" }, [
          el("summary", { text: count + " more " + (count === 1 ? "source" : "sources") + " of the " +
            (grouped.passed.length === 1 ? "kernel" : grouped.passed.length + " kernels") +
            " the engine passes over here (tried first and declined, or reached only when a condition fails)" }),
          el("ul", { "class": "atlas-card__sources" }, grouped.passed.map(function (g) {
            return el("li", {}, [link(site, records["kernel"][g.kernel], g.kernel),
              el("ul", {}, g.sources.map(sourceItem))]);
          }))]));
      }
      card.appendChild(section("Sources", body));
    }
    // what a group of sources backs, said before them (the words are the card's; the subject is the records')
    function backsLabel(g) {
      var kernel = function (id) { return link(site, records["kernel"][id], id); };
      var said = function (text) { return el("q", { "class": "atlas-card__source-said", text: text }); };
      switch (g.backs) {
        case "selection": return ["Which kernel the engine selects for this scheme (the scheme and its candidate list)"];
        case "kernel": return ["What ", kernel(g.subject), " requires and does"];
        case "computes": return ["What ", kernel(g.subject), " computes in"];
        case "condition": return ["The condition ", said(g.subject)];
        case "install": return ["What the default install's binaries carry"];
        case "published": return ["The published table ", link(site, records["support-matrix"][g.subject], g.subject)];
        case "finding": return ["The finding ", link(site, records["finding"][g.subject], g.subject)];
        case "need": return ["Also needed at run time: ", said(g.subject)];
        case "part": return ["On this part: ", said(g.subject)];
        case "trap": return ["The trap ", link(site, records["gotcha"][g.subject], g.subject)];
        default: return ["The rest of the answer"];
      }
    }
    function sourceItem(s) {
      var source = records["source"][s];
      var item = [link(site, source, s)];
      if (source && source.link) { item.push(" · ", el("a", { href: source.link, rel: "noopener", text: "read the source" })); }
      if (source && source.accessed) { item.push(el("small", { text: " (checked " + source.accessed + ")" })); }
      return el("li", {}, item);
    }
    function trapItem(t) {
      var trap = records["gotcha"][t];
      var parts = trapParts(cell, t, place, records, true);
      return el("li", {}, [
        el("span", { "class": "atlas-severity atlas-severity--" + (trap ? trap.severity : "unknown"), text: trap ? trap.severity : "?" }),
        trap && trap.silent ? el("span", { "class": "atlas-silent", text: "silent" }) : null,
        " ", link(site, trap, t), trap && trap.applies_when ? el("span", { "class": "atlas-card__trap-when",
          text: " (" + fillText(WORDS.trap_when, { when: trap.applies_when }) + ")" }) : null,
        parts ? el("span", { "class": "atlas-card__trap-parts", text: " (" + fillText(WORDS.trap_parts, { parts: parts }) + ")" }) : null,
        trap && trap.unverified ? " " : null,
        trap && trap.unverified ? el("span", { "class": "atlas-unverified", title: "Unverified: " + trap.unverified, text: "unverified" }) : null,
        trap && trap.contested ? " " : null, trap && trap.contested ? contestedMark(site, trap) : null]);
    }
    card.appendChild(el("p", { "class": "atlas-card__more" }, ["Every candidate kernel and its reason: ",
      link(site, scheme, schemeId), "'s page, or ", el("code", { text: "python -m generators explain " + schemeId + " " + targetId })]));
    answer.appendChild(card);
  }

  function boot() {
    var root = document.querySelector(".atlas-selector[data-api]");
    if (root) { start(root); }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", boot); } else { boot(); }
})();
