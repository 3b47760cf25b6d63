"""One way to compose a game (docs/adding-a-game.md): a Rules[State, Move] class, with each
capability's functions registered on it, never a chain of mixins. Every registered game, Pig
and the games `pnpgen new` writes hold at most four pnpgen classes in their MRO."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from pnpgen.content.game import load_games
from pnpgen.engine.capabilities import own, own_bots
from pnpgen.engine.protocol import Analysis, Notation, Rules, StateCodec
from pnpgen.games import OWN_ENGINES, rules_for_content
from pnpgen.render.publishing import Publishing, mockup, rulebook_context, rulebook_figure, rulebook_table
from pnpgen.scaffold import new_game

ROOT = Path(__file__).resolve().parents[1]
MAX_PNPGEN_CLASSES = 4


def pnpgen_classes(cls: type) -> list[str]:
    """The classes of `cls`'s MRO that pnpgen or a pnpgen game package defines."""
    return [f"{k.__module__}.{k.__qualname__}" for k in cls.__mro__ if k.__module__.startswith("pnpgen")]


def _module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and NamedTuples look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def registered() -> dict[str, type]:
    """The Rules class of every game the shipped content plays, by engine and class."""
    classes: dict[str, type] = {}
    for content in load_games(ROOT / "content"):
        for rules in rules_for_content(content):
            classes[f"{content.engine}: {type(rules).__qualname__}"] = type(rules)
    return classes


def test_every_engine_is_walked(registered: dict[str, type]) -> None:
    engines = {name.split(":")[0] for name in registered}
    assert engines == set(OWN_ENGINES)
    assert sum(name.startswith("fast_alone") for name in registered) == 5  # one class per puzzle


def test_no_registered_game_holds_more_than_four_pnpgen_classes(registered: dict[str, type]) -> None:
    deep = {name: pnpgen_classes(cls) for name, cls in registered.items()
            if len(pnpgen_classes(cls)) > MAX_PNPGEN_CLASSES}
    assert not deep, deep


def test_no_game_inherits_a_capability(registered: dict[str, type]) -> None:
    """Capabilities are methods found by name: none is a base class, yet each is found."""
    for name, cls in registered.items():
        assert not {Notation, StateCodec, Analysis, Publishing} & set(cls.__mro__), name
        assert issubclass(cls, Rules)
        for method in ("parse_move", "format_move", "to_data", "from_data", "example_state", "check",
                       "evaluate", "game_stats", "rulebook_context"):
            assert callable(getattr(cls, method, None)), f"{name} lacks {method}"


def test_pig_is_one_class() -> None:
    pig = _module(ROOT / "examples" / "pig" / "pnpgen_pig" / "__init__.py", "pnpgen_pig_contract")
    assert pnpgen_classes(pig.Pig) == ["pnpgen_pig_contract.Pig", "pnpgen.engine.protocol.Rules"]


@pytest.mark.parametrize("kind", ["dice", "grid"])
def test_pnpgen_new_writes_one_class(tmp_path: Path, kind: str) -> None:
    written = new_game(tmp_path / "content", f"contract-{kind}", kind, ci=False)
    (rules_py,) = [p for p in written if p.name == "__init__.py"]
    module = _module(rules_py, f"pnpgen_contract_{kind}")
    game = next(v for v in vars(module).values() if isinstance(v, type) and issubclass(v, Rules) and v is not Rules)
    assert pnpgen_classes(game) == [f"pnpgen_contract_{kind}.{game.__qualname__}", "pnpgen.engine.protocol.Rules"]
    for method in ("parse_move", "to_data", "from_data", "check", "rulebook_context"):
        assert callable(getattr(game, method, None)), method


def test_a_protocol_stub_is_no_capability() -> None:
    """A class that subclasses a capability protocol without writing a method has not got it."""

    class Bare(Analysis[int, str]):
        pass

    class Written(Analysis[int, str]):
        def game_stats(self, state: int) -> dict[str, float]:
            return {"state": float(state)}

    assert own(Bare(), "game_stats") is None
    found = own(Written(), "game_stats")
    assert found is not None and found(3) == {"state": 3.0}


def test_one_random_bot(registered: dict[str, type]) -> None:
    """No game writes a random bot: `random` is the engine's, on the game's sample_move."""
    for content in load_games(ROOT / "content"):
        for rules in rules_for_content(content):
            assert "random" not in own_bots(rules), rules.id


def test_publishing_asks_each_method_by_name() -> None:
    """What a game publishes for print only; a game that publishes nothing gives nothing."""
    from tests.test_harness_toys import CoinRace, toy_content

    bare = CoinRace(toy_content("coin-race", {"target": 5}, {"target": "reached the target"}))
    assert rulebook_context(bare, "en") == {} and mockup(bare, "en") is None
    with pytest.raises(KeyError):
        rulebook_table(bare, "anything", "en")
    with pytest.raises(KeyError):
        rulebook_figure(bare, "anything", "en")
    (game,) = load_games(ROOT / "content", ["burning-desire"])
    (rules,) = rules_for_content(game)
    assert rulebook_context(rules, "en")["threshold"] == rules.cfg.threshold  # type: ignore[attr-defined]
