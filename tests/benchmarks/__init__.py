"""Benchmarks (`make bench`) and the tests that hold the bench tools to what they claim."""


def build_target(targets: dict[str, int]) -> int:
    """The rate an engine bench must reach with the build of the engine this process runs
    (issue #18 sets one target for the compiled build and one for plain Python). Asked once
    the engine has run, since the build is known only from the modules imported. A "mixed"
    build, some modules compiled and some not, is held to the compiled target."""
    from tables.games import engine_build

    return targets.get(engine_build(), targets["compiled"])
