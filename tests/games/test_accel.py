"""The compiled engine is loaded only when it was built from the source on disk."""

from __future__ import annotations

import importlib.machinery

import pytest

from tables.games import accel, build_ext


def finder_with(monkeypatch, tmp_path, *, mode: str, digest: str | None, extension: bool = True):
    monkeypatch.setenv("CASINO_ENGINE", mode)
    so = tmp_path / f"cards{importlib.machinery.EXTENSION_SUFFIXES[0]}"
    if extension:
        so.write_bytes(b"not really a compiled module")
    monkeypatch.setattr(accel, "extension_path", lambda name: so)
    finder = accel.EngineFinder()
    finder.manifest = {"modules": {"vocabulary.cards": {"file": so.name, "source_sha256": digest}}} if digest else {}
    return finder


def test_a_build_of_the_current_source_is_used(monkeypatch, tmp_path):
    digest = accel.source_digest(accel.source_path("vocabulary.cards"))
    finder = finder_with(monkeypatch, tmp_path, mode="auto", digest=digest)
    spec = finder.find_spec("tables.games.vocabulary.cards")
    assert isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)
    assert finder.loaded["vocabulary.cards"] == "compiled"


@pytest.mark.parametrize("digest", ["0" * 64, None], ids=["stale build", "no build"])
def test_a_stale_or_missing_build_falls_back_to_the_source(monkeypatch, tmp_path, digest):
    finder = finder_with(monkeypatch, tmp_path, mode="auto", digest=digest)
    spec = finder.find_spec("tables.games.vocabulary.cards")
    assert isinstance(spec.loader, importlib.machinery.SourceFileLoader)
    assert spec.origin.endswith("cards.py") and finder.loaded["vocabulary.cards"] == "python"


def test_compiled_mode_refuses_a_stale_build(monkeypatch, tmp_path):
    finder = finder_with(monkeypatch, tmp_path, mode="compiled", digest="0" * 64)
    with pytest.raises(accel.StaleBuild, match="make engine"):
        finder.find_spec("tables.games.vocabulary.cards")


def test_python_mode_never_loads_a_build(monkeypatch, tmp_path):
    digest = accel.source_digest(accel.source_path("vocabulary.cards"))
    finder = finder_with(monkeypatch, tmp_path, mode="python", digest=digest)
    assert isinstance(finder.find_spec("tables.games.vocabulary.cards").loader, importlib.machinery.SourceFileLoader)


def test_other_modules_are_left_to_python(monkeypatch, tmp_path):
    finder = finder_with(monkeypatch, tmp_path, mode="auto", digest=None)
    assert finder.find_spec("tables.games.accel") is None
    assert finder.find_spec("tables.models") is None
    assert finder.find_spec("tables.games.no_such_module") is None
    assert finder.find_spec("tables.games.blackjack") is None  # a package
    assert finder.find_spec("tables.games.blackjack.__init__") is None


def test_an_unknown_mode_is_refused(monkeypatch):
    monkeypatch.setenv("CASINO_ENGINE", "fast")
    with pytest.raises(ValueError, match="CASINO_ENGINE"):
        accel.mode()


def test_the_build_lists_changed_modules_only(monkeypatch, tmp_path):
    names = build_ext.engine_modules()
    assert "blackjack.audit" in names and "vocabulary.cards" in names and "accel" not in names
    assert not any(n.endswith("__init__") for n in names)  # packages are Python's to import
    manifest = {"directives": build_ext.DIRECTIVES,
                "modules": {n: {"file": "present.so", "source_sha256": accel.source_digest(accel.source_path(n))}
                            for n in names}}
    manifest["modules"]["vocabulary.cards"]["source_sha256"] = "0" * 64
    monkeypatch.setattr(build_ext, "read_manifest", lambda: manifest)
    monkeypatch.setattr(build_ext, "extension_path", lambda n: tmp_path / "present.so")
    (tmp_path / "present.so").write_bytes(b"")
    assert build_ext.stale_modules() == ["vocabulary.cards"]
    assert build_ext.stale_modules(force=True) == names
    manifest["directives"] = {**build_ext.DIRECTIVES, "annotation_typing": True}
    assert build_ext.stale_modules() == names  # built with other directives: every module again


def test_a_changed_pxd_makes_the_build_stale(tmp_path):
    """The types in a module's .pxd are compiled into its build: editing them alone must not
    leave the loader trusting the old build."""
    source = tmp_path / "cards.py"
    source.write_text("X = 1\n")
    alone = accel.source_digest(source)
    (tmp_path / "cards.pxd").write_text("cpdef int f(int x)\n")
    typed = accel.source_digest(source)
    (tmp_path / "cards.pxd").write_text("cpdef long f(long x)\n")
    assert len({alone, typed, accel.source_digest(source)}) == 3


def test_every_pxd_belongs_to_an_engine_module():
    """A .pxd with no .py beside it (a renamed module) would be silently ignored."""
    stray = sorted(str(p) for p in accel.HERE.rglob("*.pxd") if not p.with_suffix(".py").exists())
    assert stray == []


def test_a_build_that_cimports_a_stale_one_is_stale_too(monkeypatch, tmp_path):
    """player_levels' build reads dealer_moments' compiled types: beside the plain source of
    dealer_moments it could not even be imported, so it falls back to its source as well."""
    assert accel.cimports(accel.source_path("poker_or_bust.player_levels")) == ["poker_or_bust.dealer_moments"]
    so = tmp_path / f"x{importlib.machinery.EXTENSION_SUFFIXES[0]}"
    so.write_bytes(b"")
    monkeypatch.setattr(accel, "extension_path", lambda name: so)
    monkeypatch.setenv("CASINO_ENGINE", "auto")
    finder = accel.EngineFinder()
    names = ("poker_or_bust.player_levels", "poker_or_bust.dealer_moments")
    finder.manifest = {"modules": {n: {"file": so.name, "source_sha256": accel.source_digest(accel.source_path(n))}
                                   for n in names}}
    assert finder.fresh("poker_or_bust.player_levels")
    finder.manifest["modules"]["poker_or_bust.dealer_moments"]["source_sha256"] = "0" * 64
    assert not finder.fresh("poker_or_bust.player_levels")
    spec = finder.find_spec("tables.games.poker_or_bust.player_levels")
    assert isinstance(spec.loader, importlib.machinery.SourceFileLoader)


def test_a_changed_pxd_of_a_cimported_module_changes_the_digest(tmp_path, monkeypatch):
    (tmp_path / "a.py").write_text("X = 1\n")
    (tmp_path / "a.pxd").write_text("from tables.games.b cimport T\n")
    (tmp_path / "b.pxd").write_text("cdef class T:\n    cdef int x\n")
    monkeypatch.setattr(accel, "source_path", lambda name: tmp_path / f"{name}.py")
    before = accel.source_digest(tmp_path / "a.py")
    (tmp_path / "b.pxd").write_text("cdef class T:\n    cdef long x\n")
    assert accel.source_digest(tmp_path / "a.py") != before
