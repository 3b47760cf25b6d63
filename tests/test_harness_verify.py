"""Generic verification, end-condition coverage and golden playthroughs on toy games."""

from __future__ import annotations

from pathlib import Path

from test_harness_toys import (
    NIM_ENDS,
    BadChanceNim,
    EndlessNim,
    ForgetfulNim,
    MutatingNim,
    Nim,
    NimState,
    OverdrawNim,
    nim,
    pig,
)

from pnpgen.validate import golden_checks, verification_checks
from pnpgen.verify import golden_diff, load_golden, record_golden, unreached, verify, write_golden


def test_sound_games_pass_and_reach_every_end() -> None:
    result = verify(nim(), 20, seed=1)
    assert result.problems == []
    assert result.games == 20
    assert set(result.ends) == {"last_stone", "wind"}
    assert sum(result.ends.values()) == 20
    solo = verify(pig(), 20, seed=1)
    assert solo.problems == []
    assert set(solo.ends) == {"target", "out_of_turns"}


def test_probabilities_not_summing_to_one_are_caught() -> None:
    result = verify(nim(cls=BadChanceNim), 5, seed=1)
    assert result.problems
    assert "step 1: chance probabilities sum to 7/6, not 1 (w0, w1)" in result.problems[0]


def test_broken_invariant_is_caught_with_its_step() -> None:
    problems = verify(nim(cls=OverdrawNim), 20, seed=2).problems
    assert problems, "taking more stones than the pile holds must be caught"
    assert all("invariant broken: pile -" in p and "is negative" in p for p in problems)
    assert all(", step " in p for p in problems)


def test_state_file_round_trip_is_checked() -> None:
    problems = verify(nim(cls=ForgetfulNim), 3, seed=1).problems
    assert problems[0] == ("toy-nim, example state: the state does not survive its JSON state file "
                           "(from_data(to_data(s)) != s)")
    assert problems[1] == ("toy-nim, 2 players, seed 1012348, the initial state: the state does not "
                           "survive its JSON state file (from_data(to_data(s)) != s)")


def test_mutating_apply_is_caught() -> None:
    problems = [p for p in verify(nim(cls=MutatingNim), 1, seed=1).problems if "example state" not in p]
    assert problems == ["toy-nim, 2 players, seed 1012348, the initial state: "
                        "applying t1 changed the input state (apply must not mutate)"]


def test_declared_maximum_length_is_enforced() -> None:
    problems = verify(nim(cls=EndlessNim), 2, seed=1).problems
    assert problems and all("no end within the declared maximum of 3 steps" in p for p in problems)


def test_undeclared_and_unreached_end_conditions() -> None:
    undeclared = verify(nim(ends={"last_stone": "took the last stone"}), 20, seed=1).problems
    assert any("ended by 'wind', which end_conditions: does not declare (last_stone)" in p for p in undeclared)
    rules = nim(ends={**NIM_ENDS, "resign": "a player resigned"})
    assert unreached(rules, {"last_stone", "wind"}) == ["resign"]
    checks = {c.name: c for c in verification_checks(rules, seed=1, smoke_games=10, verify_games=10)}
    assert checks["verification toy-nim"].ok
    assert checks["smoke test toy-nim"].ok
    assert checks["end conditions toy-nim"].problems == [
        "end condition 'resign' (a player resigned) was never reached"]


def test_golden_playthrough_replays_and_diffs_name_the_step(tmp_path: Path) -> None:
    rules = nim()
    golden = record_golden(rules, seed=5)
    assert golden["steps"][0][:2] == [1, 3]  # seat 1 to move, three legal takes
    assert golden_diff(rules, golden) == []
    # One more stone may be taken: the very first step offers four moves.
    assert golden_diff(nim(rules={"max_take": 4}), golden) == [
        "step 1: 4 options (legal moves or outcomes), the golden run had 3"]
    # A bigger pile: the same moves no longer finish the game.
    diff = golden_diff(nim(rules={"pile": 16}), golden)
    assert len(diff) == 1 and diff[0].startswith("step ")
    path = tmp_path / "toy-nim.yaml"
    write_golden(path, "toy-nim", 3, [golden])
    assert load_golden(path)["toy-nim"]["steps"] == golden["steps"]


def test_golden_checks_update_then_compare(tmp_path: Path) -> None:
    rules = nim()
    written = golden_checks(rules.content, [rules], tmp_path, seed=2, update=True)
    assert written[0].ok and "written to" in written[0].detail
    same = golden_checks(rules.content, [rules], tmp_path, seed=2, update=False)
    assert [c.ok for c in same] == [True]
    changed = nim(rules={"max_take": 2})
    (check,) = golden_checks(changed.content, [changed], tmp_path, seed=2, update=False)
    assert check.problems == ["toy-nim.yaml: step 1: 2 options (legal moves or outcomes), the golden run had 3"]


def test_a_crashing_method_is_named() -> None:
    class CrashingNim(nim().__class__):
        def to_data(self, state: NimState) -> dict[str, object]:
            if state.pile < 10:
                raise KeyError("pile")
            return super().to_data(state)

    example, *problems = verify(nim(cls=CrashingNim), 1, seed=1).problems
    assert example == "toy-nim, example state: to_data crashes: KeyError: 'pile'"
    assert len(problems) == 1
    assert problems[0].endswith(": to_data crashes: KeyError: 'pile'")
    assert ", step " in problems[0]


def test_rare_ends_may_be_declared_unreachable() -> None:
    rules = nim(ends={**NIM_ENDS, "resign": "a player resigned"}, simulation={"unreached_ok": ["resign"]})
    checks = {c.name: c for c in verification_checks(rules, seed=1, smoke_games=0, verify_games=5)}
    ends = checks["end conditions toy-nim"]
    assert ends.ok and ends.detail.endswith("; not reached, declared rare: resign")


def test_determinism_across_hash_seeds() -> None:
    from pnpgen.verify import determinism

    assert determinism(nim(), 1) == ([], "skipped: the game has no folder on disk")
    root = Path(__file__).resolve().parent.parent / "content"
    from pnpgen.content.game import load_games
    from pnpgen.games import rules_for_content

    (content,) = load_games(root, ["dice-road-race"])
    rules = rules_for_content(content)[0]
    problems, note = determinism(rules, 3)
    assert problems == [] and note.endswith("steps identical under another hash seed")


def test_protocol_checks_example_state_and_bad_notation() -> None:
    from pnpgen.verify import protocol_checks

    assert protocol_checks(nim()) == [] and protocol_checks(pig()) == []

    class LaxNim(Nim):
        def parse_move(self, text: str, state: NimState | None = None) -> str:
            return text

        def example_state(self) -> NimState:
            return NimState(-2, 0, 1)

    assert protocol_checks(nim(cls=LaxNim)) == [
        "example state: invariant broken: pile -2 is negative",
        "parse_move accepts '?? not a move ??' (it must raise BadMove)",
    ]
