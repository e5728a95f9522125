"""The store of results kept between trees (generators/last_few.py): what it keeps, finds and drops."""
from generators.last_few import LastFew


def test_keeps_the_last_few_per_key_newest_first():
    store: LastFew[int] = LastFew(per_key=2)
    for entry in (1, 2, 3):
        store.keep("a", entry)
    store.keep("b", 9)
    assert store.find("a", lambda e: e == 1) is None  # the oldest of three went
    assert store.find("a", lambda e: e == 2) == 2
    assert store.find("b", lambda e: True) == 9
    assert store.find("c", lambda e: True) is None


def test_a_hit_moves_to_the_front_so_the_entry_taken_last_stays():
    store: LastFew[str] = LastFew(per_key=2)
    store.keep("k", "base")
    store.keep("k", "past")
    assert store.find("k", lambda e: e == "base") == "base"  # taken again: now the newest
    store.keep("k", "other")  # drops "past", not "base"
    assert store.find("k", lambda e: e == "past") is None
    assert store.find("k", lambda e: e == "base") == "base"


def test_find_takes_the_first_entry_that_is_the_same():
    store: LastFew[tuple[str, int]] = LastFew()
    store.keep("k", ("x", 1))
    store.keep("k", ("x", 2))
    assert store.find("k", lambda e: e[0] == "x") == ("x", 2)
