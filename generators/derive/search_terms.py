"""Search terms: the names a reader types to find a record, given to the site search as its page's tags.

How the theme ranks (Material for MkDocs 9, its search plugin and the lunr worker it ships): every section of a page is
one search document and carries the page's front-matter `tags`; a match in the tags weighs 10^6, in a title 10^3, in
the text 1 (the plugin's field boosts). Words are split at spaces and hyphens, a typed word matches every indexed word
it begins (the worker appends `*`), and the scores of the matched words add up, each weighted by its rarity (lunr's
idf; Material turns off length normalisation); a page whose first section has every typed word is then multiplied by
5, one with some of them by less. A page's front-matter `search: boost:` multiplies the page's score for every query
that finds it, whatever matched: a boost given so that 'GPTQ' finds the GPTQ page first would also lift that page for
'scale' or 'Marlin'. So no page boost lifts a page here (source pages keep the template's site-wide 0.3, glossary
pages 0.9: see below).

The terms of a format, kernel or engine record: its name without a trailing parenthetical, its id (readers paste
'vllm-cutlass-int8-scaled-mm'), a kernel's class name ('MarlinExperts') and its aliases (a format's of one plain word
only: 'EXL2', 'float8_e5m2'; its longer aliases share words readers search alone). A name of several words loses its
prose, the words of lower-case letters only but 'bit' after a number ('Machete weight-only 4-bit GEMM' is the term
'Machete 4 bit GEMM'): a tag
outranks every title, so 'weight' or 'block' would otherwise list those records before the pages about weights or
blocks; a name left with one word is no term ('FP8 block scaling' is not named 'FP8'). A term two records share stays
with the one whose name it is, then id, glossary spelling, class name, alias, name without prose ('AutoRound' names the
AutoRound engine; the AutoRound W4A16 format's alias yields), but for a glossary spelling that is a record's name or id:
both pages keep it ('Marlin', the Marlin engine's name and id, and the Marlin glossary page's spelling). A format's nominal bits per weight is a term as readers write a width
('4-bit': the words '4' and 'bit'; lunr's query lexer splits a typed '4-bit' at its hyphen with the separator it read
when it loaded, so a search `separator` that kept '4-bit' whole in the index would leave the query matching nothing of
it), so '4-bit' lists the 4-bit formats before BitNet, bitnet.cpp and bitsandbytes, whose names 'bit' begins (each
width starts with the most markers on 'bit': see _Markers._seed). A hardware target's terms are its id, on CUDA nvcc's spelling of its compute capability ('sm_90'), and the architecture
its accelerators state ('Hopper'): see _target_terms.

A glossary (term) page's terms are its spellings ('MMVQ'), and its definition names the things called by its word: the
kernels and engines whose names and ids carry the spelling ('llama.cpp MMVQ', 'vllm-gguf-mmvq'). The theme multiplies
a page's first section by 5 when it holds every typed word (tags, title or text), by 1 + (1 + the share it holds)^2
otherwise, and a later section by at most 2. With its definition in the first section, the glossary page had every word
of those names and ids there too, and its markers on the spelling (which it needs to come first for 'MMVQ' before those
kernels) then put it first for their names and ids as well; the whole words a kernel's id adds ('vllm', 'gguf') are
too common to weigh against a marker. So the layout (docs/_templates/record.md.j2) puts a glossary page's definition in
a section of its own: its first section holds its title, id line and tags (every word of its spellings), so a
record's exact id or name finds that record first ('vllm-gguf-mmvq' is 9.4 to the glossary page's 7.3, in millions) and
the spelling alone the glossary page (13.4 to 8.4 for 'MMVQ'); tests/test_search_terms.py checks that no glossary page
holds every word of another page's term there while weighing on it. A spelling that is also a record's name or id
('Marlin', the Marlin engine) is both pages' term with the same markers (they are not weighed against each other), and
the glossary pages' page boost of 0.9, which only lowers them, lists the record first and the glossary page second; a
spelling that is only the glossary page's keeps its lead (the solver puts a marker more on it than on any other page).

Weight that only the record's own names reach, instead of a page boost: marker tags, a word of a term with one or more
'_' appended ('genai_', 'gptq__'), which only a typed word beginning like that word matches (_Markers). A page's weight
for a query is about the number of its tag words the typed words begin; every term's page must outweigh each page that
lacks the term. So 'ONNX Runtime' finds ONNX Runtime before ONNX Runtime GenAI (which has both words), 'GPTQ' the
format before GPTQModel (whose 'gptqmodel' the prefix also matches), 'FP8 E5M2' FP8 E5M2 before FP8 E4M3 (whose one
word 'FP8' carries markers of its own) and a kernel's full id its page before the siblings that share four of its
five words. Tags are hidden in the result list (docs/stylesheets/atlas.css). lunr's idf is not modelled (a word many
pages mention weighs less than a marker), so a few ids of common words still come second:
benchmarks/search_ranking.py counts them in the theme's own worker.

A term is kept only if it is plain text for the theme: the result list appends each tag to the page as HTML (its
`h()` helper sets innerHTML for strings), hidden or not, so a term with '<', '>', '&', a quote, a backslash or a
control character is left out (contributors write the names).
Pure functions of the records; terms keep the record's order (name, id, class name, aliases), each once whatever its
case and separators.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache
from dataclasses import dataclass

from ..model.index import Index
from ..model.records import Record
from .members import members

SEARCH_FIRST_KINDS = ("format", "kernel", "engine", "hardware-target", "term")
GLOSSARY = "term/"  # a glossary page must be outweighed by two tag words, not one: its markers, on one page, weigh
# more (idf) than the markers a name shares with its kin (its text names the things called by its word, the Marlin page
# says 'MoE', which also put it at 5 times for their names until its definition got a section of its own)
MARKER = "_"  # appended to a word of a term; the theme's separator (spaces, hyphens) keeps it in the word
_SEPARATOR = re.compile(r"[\s\-]+")  # the theme's default `separator`, as the built search index states it
_PARENTHETICAL = re.compile(r"\s*\([^)]*\)\s*$")
_UNSAFE = re.compile(r"[<>&\"'`\\\x00-\x1f\x7f]")
_PROSE = re.compile(r"[a-z]+|[^A-Za-z0-9]+")  # a word of a name that describes: 'grouped', '/'
_NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?")
_FORMAT_WORD = re.compile(r"[A-Za-z0-9_.+]+")  # a format's label such as 'FP8(rowwise)' would begin every 'fp8' query


@dataclass(frozen=True)
class SearchTerms:
    """A record page's search terms and the marker tags that weigh its own terms (see the module docstring)."""

    terms: tuple[str, ...]
    markers: tuple[str, ...]

    @property
    def tags(self) -> tuple[str, ...]:
        """What the page's front matter lists as `tags`: the terms, then the markers."""
        return self.terms + self.markers


def _is_width(term: tuple[str, ...]) -> bool:
    """Whether a term's words are a width as _width writes it: a number, then 'bit'."""
    return len(term) == 2 and term[1] == "bit" and _NUMBER.fullmatch(term[0]) is not None


@lru_cache(maxsize=1 << 14)
def words(term: str) -> tuple[str, ...]:
    """A term's words as the theme indexes them: split at spaces and hyphens, lower case (asked several times a term)."""
    return tuple(word for word in _SEPARATOR.split(term.lower()) if word)


def search_terms(record: Record, index: Index) -> tuple[str, ...]:
    """The names of a format, kernel, engine, hardware-target or term record a reader would type; nothing for other
    kinds."""
    return tuple(name for name, _ in _ranked_terms(record, index))


SPELLING = 2  # a glossary term's spelling ranks after a record's name and id: a record named or identified by it
# ('Marlin', the engine) keeps it beside the glossary page, which the page's search boost puts second (see the module
# docstring); a class name or alias it spells ('float8_e4m3fn' of FP8 E4M3) yields to the glossary page
DERIVED = 6  # the rank of a term read from a record's facts rather than its names: a bit width, an architecture


def _ranked_terms(record: Record, index: Index) -> list[tuple[str, int]]:
    """The record's terms with their rank: 0 its name, 1 its id, 2 (SPELLING) a term record's spelling, 3 its class
    name, 4 an alias, 5 its name without prose, 6 (DERIVED) a format's bit width or a target's architecture; a term
    shared with another record stays only where its rank is best."""
    if record.kind not in SEARCH_FIRST_KINDS:
        return []
    names = _target_terms(record, index) if record.kind == "hardware-target" else _spellings(record) \
        if record.kind == "term" else _record_terms(record)
    terms: dict[tuple[str, ...], tuple[str, int]] = {}
    for term, rank in names:
        if words(term) and not _UNSAFE.search(term) and rank < terms.get(words(term), ("", DERIVED + 1))[1]:
            terms[words(term)] = (term, rank)  # in the place of the first with these words, as the best ranked
    return list(terms.values())


def _spellings(record: Record) -> list[tuple[str, int]]:
    """A glossary term's spellings ('MMVQ', 'float8_e4m3fn', 'compute capability'), which the site links to its
    definition: a reader who meets one types it as written, prose words included (the spelling is the term). Not its
    name or id: the name's parenthetical is stripped to the spelling anyway, and 'mmvq' says nothing 'MMVQ' does not."""
    return [(s, SPELLING) for s in record.data.get("spellings", []) if isinstance(s, str)]


def _record_terms(record: Record) -> list[tuple[str, int]]:
    data = record.data
    name = _PARENTHETICAL.sub("", record.name)
    short = name if len(words(name)) == 1 else _name(name)
    names = [(short, 0 if short == name else 5), (record.id, 1)]
    names += [(data["class_name"], 3)] if isinstance(data.get("class_name"), str) else []
    aliases = [a for a in data.get("aliases", []) if isinstance(a, str)]
    names += [(a, 4) for a in aliases if record.kind != "format" or _FORMAT_WORD.fullmatch(a)]
    return names + [(width, DERIVED) for width in [_width(data.get("weight_bits"))] if record.kind == "format" and width]


def _width(bits: object) -> str:
    """Bits per weight as readers write a width: 4 is '4-bit', 1.58 '1.58-bit'; nothing when not one number."""
    if type(bits) is int or type(bits) is float:
        return f"{int(bits) if float(bits).is_integer() else bits}-bit" if bits > 0 else ""
    return ""


def _target_terms(record: Record, index: Index) -> list[tuple[str, int]]:
    """A hardware target's id ('nvidia-sm90' is found by 'sm90'); for a CUDA target, its compute capability as nvcc
    spells the architecture ('sm_90', 'sm_120') and the architecture-specific names the record cites ('sm_90a', 'sm_103a':
    a typed 'sm_103' begins it, so B300's capability finds its target), which readers paste from build flags, kernel
    requirements and engine errors; and the
    architecture each of its accelerators states, without a trailing parenthetical or prose words ('Hopper', 'Blackwell
    Ultra'): the fact is the accelerator's, the target only stands for the part.
    Not its name: 'NVIDIA SM 9.0' would tag every NVIDIA target with 'nvidia' and 'sm'."""
    terms = [(record.id, 1)]
    capability = record.data.get("compute_capability")
    if record.data.get("platform") == "cuda" and type(capability) is int and capability > 0:
        terms.append((f"sm_{capability}", 4))
        terms += [(name, 4) for name in record.data.get("cuda_arch_names", []) if isinstance(name, str)]
    for accelerator in members(index, record):
        found = index.get("accelerator", accelerator)
        stated = found.data.get("architecture") if found is not None else None
        if isinstance(stated, str):
            architecture = _PARENTHETICAL.sub("", stated)
            terms.append((architecture if len(words(architecture)) == 1 else _name(architecture), DERIVED))
    return terms


def _name(name: str) -> str:
    """A name of several words without its prose: words of lower-case letters only ('weight-only', 'grouped', 'for')
    or without a letter or digit ('/') describe the thing, they are not its name (readers search them alone), but
    for 'bit' after a number ('4-bit': the widths outweigh a name without it on 'bit'). Nothing when one word is
    left: 'FP8 block scaling' is not named 'FP8' (its id is a term)."""
    written = [w for w in _SEPARATOR.split(name) if w]
    kept = [w for n, w in enumerate(written) if not _PROSE.fullmatch(w) or _is_width((written[n - 1], w) if n else ())]
    return name if kept == written else " ".join(kept) if len(kept) > 1 else ""


def search_terms_by_record(index: Index) -> dict[str, SearchTerms]:
    """Every format, kernel, engine, hardware-target and term record with search terms, by ref, in kind then id order."""
    ranked = {r.ref: _ranked_terms(r, index) for kind in SEARCH_FIRST_KINDS for r in index.all(kind)}
    best: dict[tuple[str, ...], int] = {}
    for terms in ranked.values():
        for term, rank in terms:
            best[words(term)] = min(rank, best.get(words(term), rank))
    found = {ref: tuple(t for t, rank in terms if rank == best[words(t)] or rank == SPELLING > best[words(t)])
             for ref, terms in ranked.items()}  # a spelling stays beside a record's name or id
    found = {ref: terms for ref, terms in found.items() if terms}
    markers = _solved(tuple(found.items()))
    return {ref: SearchTerms(terms, markers[ref]) for ref, terms in found.items()}


@lru_cache(maxsize=1)
def _solved(found: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, tuple[str, ...]]:
    """The marker tags of these terms: the solver is a pure function of them, and most edits (a summary, a cell)
    leave every term as it was, so a long-lived process (`mkdocs serve`, `build --watch`) solves again only when a
    name, id, class name or alias changed. Callers only read the result."""
    return _Markers(dict(found)).solve()


Clause = tuple[str, bool]  # a typed word and whether the worker matches it as a prefix (else only the word itself)


@lru_cache(maxsize=1 << 14)
def clauses(term: str) -> tuple[Clause, ...]:
    """A term typed as written, as the theme's worker reads it: a word between spaces is a prefix ('onnx runtime' ->
    onnx*, runtime*); within a hyphenated word only the last part is ('vllm-cutlass-int8' -> vllm, cutlass, int8*), the
    worker's query transform keeps the hyphens and lunr's query parser then reads the parts before as whole words."""
    return tuple((part, n == len(parts) - 1) for group in term.lower().split() for parts in [words(group)]
                 for n, part in enumerate(parts))


class _Markers:
    """Marker counts per page and word, raised until each page's terms outweigh every other page on them.

    A page's weight for a term typed as written (or with spaces for its hyphens) is the number of its tag words (plain or marker) that each of the
    term's clauses matches (a prefix clause every tag word it begins, a whole-word clause the word itself). Every term
    starts with one marker on its last word (but an identifier that begins with another page's one-word term and '_':
    see _seed); where another page weighs as much or more on the term, the page gets the
    difference plus one in markers of one of the term's prefix words: never a word that alone is another page's term
    and not this page's too (that page's name comes first: 'vllm-marlin', whose only prefix word is 'marlin', does not
    compete with the Marlin engine; a term two pages share, 'FlashInferExperts', is not weighed between them, so either
    may raise it: left only 'moe', FlashInfer's CUTLASS MoE kernel raised a word every MoE kernel's id ends in, each
    then raising its own to stay ahead on it, to MOST), nor a word already at MOST; the word that the fewest pages'
    term words begin, itself included (its markers lift the page least for other queries: counted as a whole word,
    'sm80' of MLX's SM80 kernel looked rarer than 'qmm', though its markers lift the page on every 's' the GGUF ids
    ending in '-s' are typed with, and raising it took nvidia-sm80 to MOST there), then the word that page has fewest
    of. Pages that hold a
    term are not compared on it: two records named alike; a page with each of the term's prefix words alone as a term
    (it must outweigh the page on each such word alone, so cannot be outweighed on them together: 'MXFP4' is the
    MXFP4 format's term, so 'gguf-mxfp4', which only its last word can weigh, is left to lunr); a page with all the
    words of a term of several words among its own ('vllm-aiter-hipbmm-per-token-fp8-scaled-mm' has every word of
    'vllm-aiter-per-token-fp8-scaled-mm', and each would raise 'mm_' for ever to outweigh the other). Rounds repeat while a
    page still needs more, at most ROUNDS times and MOST markers a word (pages whose terms overlap so that each must
    outweigh the other would raise each other for ever).

    Rivals are found per clause in a sorted list of every page's tag words, so a term costs the pages its rarest clause
    matches, not a pass over every page (thousands of records at atlas scale): those pages are summed exactly, any
    other page weighs at most the sum of the other clauses' best counts (exactly the best, for two clauses); where
    that bound is above and the clauses match at most EXACT pages in all, each of them is weighed instead."""

    ROUNDS = 40
    MOST = 8  # markers on one word: long runs of '_' are what lunr's token set has misread (phantom words)
    EXACT = 400  # pages a term's clauses may match in all for every one to be weighed, when the bound is not enough

    def __init__(self, terms: dict[str, tuple[str, ...]]):
        self.terms = {ref: [(words(t), typed) for t in found for typed in dict.fromkeys((clauses(t), clauses(" ".join(
            words(t)))))] for ref, found in terms.items()}  # typed as written, and with spaces for its hyphens
        self.plain = {ref: {w for t, _ in found for w in t} for ref, found in self.terms.items()}
        self.count: dict[str, dict[str, int]] = {ref: {} for ref in self.terms}
        self.pages_with: dict[str, int] = {}
        self.exposure: dict[str, int] = {}
        self.having: dict[str, set[str]] = {}  # the pages with the word in one of their terms
        self.owners: dict[tuple[str, ...], set[str]] = {}
        self.holders: dict[tuple[tuple[str, ...], tuple[Clause, ...]], set[str]] = {}
        self.glossary = [ref for ref in self.terms if ref.startswith(GLOSSARY)]
        self.widths = {ref for ref, found in self.terms.items() if any(_is_width(term) for term, _ in found)}
        for ref, found in self.terms.items():
            for term, _ in found:
                self.owners.setdefault(term, set()).add(ref)
        for ref, found in self.terms.items():
            for term, _ in found:
                self.count[ref][term[-1]] = max(self.count[ref].get(term[-1], 0), self._seed(ref, term))
            for word in self.plain[ref]:
                self.pages_with[word] = self.pages_with.get(word, 0) + 1
                self.having.setdefault(word, set()).add(ref)

    def solve(self) -> dict[str, tuple[str, ...]]:
        """Each page's marker tags, in the order of its terms' words."""
        changed: set[str] | None = None  # the words a marker was added to since the last round; None: every word
        self._index()
        for _ in range(self.ROUNDS):
            self._forget()
            raised: dict[tuple[str, str], int] = {}
            for ref, found in self.terms.items():
                for term, typed in found:
                    if changed is not None and not any(prefix and word in changed for word, prefix in typed):
                        continue  # no page weighs more on it than in the last round
                    rival, weight = self._rival(term, typed)
                    need = max(weight + 1, self._glossary(term, typed)) - self._weight(ref, typed)
                    free = [w for w, prefix in typed if prefix and not self._named(w, ref)
                            and self.count[ref].get(w, 0) < self.MOST]
                    if need > 0 and free:
                        word = min(free, key=lambda w: (self._exposure(w), self._begun(rival, w) if rival else 0, w))
                        raised[(ref, word)] = max(raised.get((ref, word), 0), need)
            raised = {key: need for key, need in raised.items() if self.count[key[0]].get(key[1], 0) < self.MOST}
            if not raised:
                break
            for (ref, word), need in raised.items():
                self._raise(ref, word, need)
            changed = {word[:n] for _, word in raised for n in range(1, len(word) + 1)}
        return {ref: self._markers(ref) for ref in self.terms}

    def _glossary(self, term: tuple[str, ...], typed: tuple[Clause, ...]) -> int:
        """The weight that outweighs every glossary page without the term by two tag words (see GLOSSARY); 0 where no
        such page weighs anything on it."""
        holders = self.holders[(term, typed)]  # (_rival has found them)
        weights = (self._weight(ref, typed) for ref in self.glossary if ref not in holders)
        return max((weight + 2 for weight in weights if weight), default=0)

    def _seed(self, ref: str, term: tuple[str, ...]) -> int:
        """The markers a term starts with on its last word: one; a width ('4-bit') MOST, unless another of the page's
        words begins with 'bit' (BitNet): the widths share 'bit' and its markers, so lunr's idf weighs each of those a
        third of a word of one page's name (2.2 against 6.5 on the real records), and one marker more than BitNet's
        count left BitNet b1.58 first for '4-bit' (by 13.0 to 9.4 million).
        None for a one-word term that begins with another page's one-word term and '_' (an identifier such as
        'VLLM_HPU_FORCE_CHANNEL_FP8', 'gptq_hpu' or 'FP8_KV_CACHE'): its word is the page's own, no other page's word
        begins with it unless a rival needs markers there, and a marker on it would lift the page on that other name
        for every query, as a marker of the name would. One such alias with its marker put a vLLM-Gaudi kernel at
        three tag words on 'vllm', so the vLLM engine needed three markers, each of the hundred 'vLLM <class name>'
        kernels as many on its class name, and those lifted them on 'cpu', 'flashinfer' or 'moe' until words of other
        pages reached MOST and GGUF ids ending in '-m' or '-s' came second."""
        if not _is_width(term):
            last = term[-1]
            begins = (last[:n] for n in range(1, len(last)) if last[n] == "_")
            return 0 if len(term) == 1 and any(self._named(name, ref) for name in begins) else 1
        return 1 if any(w != term[-1] and w.startswith(term[-1]) for w in self.plain[ref]) else self.MOST

    def _holders(self, term: tuple[str, ...], typed: tuple[Clause, ...]) -> set[str]:
        """The pages with the term, with each of its prefix words alone as a term, or (a term of several words) with
        all its words among their terms' words; for a width, every page with a width: they weigh alike on 'bit' and
        its markers and differ in the number, a whole word."""
        alone = [self.owners.get((word,), set()) for word, prefix in typed if prefix]
        holders = self.owners[term] | set.intersection(*alone) | (self.widths if _is_width(term) else set())
        if len(term) > 1:
            holders |= set.intersection(*(self.having.get(word, set()) for word in term))
        return holders

    def _exposure(self, word: str) -> int:
        """How many pages have a word of their terms that the word begins with (itself included): a marker of the
        word is matched by each of those words typed, so lifts its page on those pages' terms."""
        found = self.exposure.get(word)
        if found is None:
            found = self.exposure[word] = len(set().union(*(self.having.get(word[:n], set())
                                                             for n in range(1, len(word) + 1))))
        return found

    def _named(self, word: str, ref: str) -> bool:
        """Whether the word alone is another page's term and not this page's: its markers would compete with that
        page's (two pages that share the term are not weighed against each other on it)."""
        owners = self.owners.get((word,), set())
        return ref not in owners and bool(owners)

    def _markers(self, ref: str) -> tuple[str, ...]:
        order = dict.fromkeys(w for term, _ in self.terms[ref] for w in reversed(term))
        return tuple(word + MARKER * n for word in order for n in range(1, self.count[ref].get(word, 0) + 1))

    def _index(self) -> None:
        """Every page's tag words, and all of them sorted (built once; markers added later are inserted in place)."""
        self.tags = {ref: self.plain[ref] | {w + MARKER * n for w, c in self.count[ref].items() for n in range(1, c + 1)}
                     for ref in self.terms}
        self.sorted = sorted((tag, ref) for ref, tags in self.tags.items() for tag in tags)
        self.keys = [tag for tag, _ in self.sorted]
        self._forget()

    def _raise(self, ref: str, word: str, need: int) -> None:
        """Adds up to `need` markers of the word to the page (MOST at most)."""
        had = self.count[ref].get(word, 0)
        self.count[ref][word] = min(had + need, self.MOST)
        for n in range(had + 1, self.count[ref][word] + 1):
            tag = word + MARKER * n
            if tag not in self.tags[ref]:
                self.tags[ref].add(tag)
                at = bisect_left(self.sorted, (tag, ref))
                self.sorted.insert(at, (tag, ref))
                self.keys.insert(at, tag)

    def _forget(self) -> None:
        self.rivals: dict[tuple[tuple[str, ...], tuple[Clause, ...]], tuple[str | None, int]] = {}
        self.top: dict[Clause, list[tuple[int, str]]] = {}
        self.counts: dict[Clause, dict[str, int]] = {}
        self.best: dict[Clause, int] = {}

    def _begun(self, ref: str, word: str) -> int:
        return self._counts((word, True)).get(ref, 0)

    def _weight(self, ref: str, typed: tuple[Clause, ...]) -> int:
        return sum(self._counts(clause).get(ref, 0) for clause in typed)

    def _top(self, clause: Clause) -> list[tuple[int, str]]:
        """The pages the clause matches tag words of, most first."""
        found = self.top.get(clause)
        if found is None:
            found = self.top[clause] = [(-n, ref) for n, ref in sorted((-n, ref) for ref, n in self._counts(clause).items())]
        return found

    def _best(self, clause: Clause) -> int:
        """The most tag words the clause matches on one page."""
        best = self.best.get(clause)
        if best is None:
            best = self.best[clause] = max(self._counts(clause).values(), default=0)
        return best

    def _counts(self, clause: Clause) -> dict[str, int]:
        """How many tag words the clause matches, per page that has any."""
        counts = self.counts.get(clause)
        if counts is None:
            word, prefix = clause
            end = bisect_left(self.keys, word + "\U0010ffff" if prefix else word + "\x00")
            counts = self.counts[clause] = {}
            for _, ref in self.sorted[bisect_left(self.keys, word):end]:
                counts[ref] = counts.get(ref, 0) + 1
        return counts

    def _rival(self, term: tuple[str, ...], typed: tuple[Clause, ...]) -> tuple[str | None, int]:
        """The page that weighs most on the term among those that do not hold it, and its weight; for a term of more
        than two clauses whose clauses match many pages the weight may be an upper bound (with no page). The same for
        every page with the term, so weighed once a round ('4-bit' is the term of hundreds of formats at 10k)."""
        found = self.rivals.get((term, typed))
        if found is None:
            found = self.rivals[(term, typed)] = self._weigh_rival(term, typed)
        return found

    def _weigh_rival(self, term: tuple[str, ...], typed: tuple[Clause, ...]) -> tuple[str | None, int]:
        holders = self.holders.get((term, typed))
        if holders is None:
            holders = self.holders[(term, typed)] = self._holders(term, typed)
        counts = [self._counts(clause) for clause in typed]
        rarest = min(range(len(typed)), key=lambda n: (len(counts[n]), n))
        others = sum(self._best(clause) for n, clause in enumerate(typed) if n != rarest)
        weight, rival = 0, None
        for count, other in self._top(typed[rarest]):  # most first: stop where no page further down weighs more
            if count + others <= weight:
                break
            if other not in holders:
                found = sum(c.get(other, 0) for c in counts)
                if found > weight:
                    weight, rival = found, other
        if others <= weight:
            return rival, weight
        rest = [next(((n, other) for n, other in self._top(clause) if other not in holders
                      and other not in counts[rarest]), (0, None)) for n, clause in enumerate(typed) if n != rarest]
        outside = sum(n for n, _ in rest)  # the pages the rarest clause matches nothing on weigh at most this
        if outside <= weight or len(rest) == 1:
            return (rival, weight) if outside <= weight else (rest[0][1], outside)
        if sum(map(len, counts)) <= self.EXACT:  # few pages: weigh each rather than raise markers against a bound
            totals: dict[str, int] = {}  # each page's weight: its counts summed over the clauses, in one pass over them
            for per_page in counts:
                for other, n in per_page.items():
                    totals[other] = totals.get(other, 0) + n
            return max(((n, other) for other, n in totals.items() if other not in holders), default=(0, None))[::-1]
        return None, outside


@dataclass(frozen=True)
class Outweighed:
    """A term that does not find its page first: typed as `typed`, the page `rival` (which does not hold the term, see
    _Markers) matches `theirs` of its tag words ('moe_' once for each), the term's own page only `own`."""

    page: str
    term: str
    typed: str
    rival: str
    own: int
    theirs: int
    matched: tuple[str, ...]  # the rival's tag words the typed term matches
    capped: tuple[str, ...]  # the words of the term with MOST markers on the page: it could not be raised further


def outweighed(found: dict[str, SearchTerms]) -> list[Outweighed]:
    """Each term typed as written or with spaces for its hyphens (one entry per page, term and form, with the rival
    that weighs most) where a page without the term weighs as much or more, though one of the term's prefix words
    alone is no other page's term (else that page's name comes first by design): what the solver could not settle, at
    ROUNDS or at MOST. Counted exactly from the tags; each typed form's weights are summed once, whichever pages hold
    it."""
    tags = {ref: {w for tag in t.tags for w in words(tag)} for ref, t in found.items()}
    entries = sorted((tag, ref) for ref, held in tags.items() for tag in held)
    keys = [tag for tag, _ in entries]
    owners: dict[tuple[str, ...], set[str]] = {}
    having: dict[str, set[str]] = {}
    for ref, t in found.items():
        for term in t.terms:
            owners.setdefault(words(term), set()).add(ref)
            for word in words(term):
                having.setdefault(word, set()).add(ref)
    widths = {ref for ref, t in found.items() if any(_is_width(words(term)) for term in t.terms)}
    per_clause: dict[Clause, dict[str, int]] = {}
    weighed: dict[tuple[Clause, ...], dict[str, int]] = {}  # each typed form's weight per page

    def counts(clause: Clause) -> dict[str, int]:
        if clause not in per_clause:
            word, prefix = clause
            end = bisect_left(keys, word + "\U0010ffff" if prefix else word + "\x00")
            per_clause[clause] = {}
            for _, ref in entries[bisect_left(keys, word):end]:
                per_clause[clause][ref] = per_clause[clause].get(ref, 0) + 1
        return per_clause[clause]

    problems: list[Outweighed] = []
    for ref, t in found.items():
        for term in t.terms:
            split = words(term)
            for typed, form in {clauses(f): f for f in (" ".join(split), term)}.items():  # the same typed once
                prefixes = [word for word, prefix in typed if prefix]
                if not any(owners.get((word,), set()) <= {ref} for word in prefixes):
                    continue  # each prefix word is another page's name: that page comes first for it
                if typed not in weighed:
                    totals: dict[str, int] = {}
                    for clause in typed:
                        for other, n in counts(clause).items():
                            totals[other] = totals.get(other, 0) + n
                    weighed[typed] = totals
                totals = weighed[typed]
                holders = owners[split] | set.intersection(*(owners.get((word,), set()) for word in prefixes)) | (
                    widths if _is_width(split) else set())
                if len(split) > 1:
                    holders |= set.intersection(*(having.get(word, set()) for word in split))
                own = totals.get(ref, 0)
                negative, rival = min(((-n, other) for other, n in totals.items() if other not in holders),
                                      default=(0, ""))  # the most, then the first by ref
                theirs = -negative
                if rival and theirs >= own:
                    matched = tuple(sorted(tag for tag in tags[rival] if any(
                        tag.startswith(word) if prefix else tag == word for word, prefix in typed)))
                    capped = tuple(w for w in dict.fromkeys(prefixes) if sum(
                        tag.rstrip(MARKER) == w and tag != w for tag in tags[ref]) >= _Markers.MOST)
                    problems.append(Outweighed(ref, term, form, rival, own, theirs, matched, capped))
    return problems
