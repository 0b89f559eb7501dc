"""Every place a person plays or measures trained agents builds its game in the observation layout they read:
v3 (the table's memory kept) when an agent was trained on it, v2 for games of bots (``agents.observation_for``).
The web app's test is in tests/test_web.py.

The v3 agents here are small untrained networks exported in the shipped-agent format for a v3 game, as the
trainers export theirs (``PolicyAgent.export``): what matters is the layout their metadata names."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import export_agent

import agents
from uno_apps import terminal
from uno_env import VecGame, analysis
from uno_env.records import check
from uno_env.table import Table

pytest.importorskip("sb3_contrib")


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """A folder like ``agents/models``: ``tiny-2p`` and ``tiny-4p``, both trained (exported) on v3."""
    folder = tmp_path_factory.mktemp("models")
    for p in (2, 4):
        meta = json.loads(export_agent(folder / f"tiny-{p}p", p).read_text())
        assert meta["observation"] == "v3"
    return folder


def spy_on(monkeypatch, module, name: str) -> list:
    """Replace ``module.name`` (a class) by a subclass that keeps every instance built; returns that list."""
    made: list = []
    base = getattr(module, name)

    class Spy(base):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            made.append(self)

    monkeypatch.setattr(module, name, Spy)
    return made


# ---------------------------------------------------------------------- the metadata
def test_observation_for_reads_each_agents_layout_from_its_metadata(models, tmp_path):
    v3 = str(models / "tiny-2p")
    old = tmp_path / "old"  # an export from before v3: no "observation", it reads v2
    meta = json.loads((models / "tiny-2p.json").read_text())
    del meta["observation"]
    old.with_suffix(".json").write_text(json.dumps(meta))
    old.with_suffix(".pt").write_bytes((models / "tiny-2p.pt").read_bytes())
    v2 = export_agent(tmp_path / "v2", 2, observation="v2")
    specs = ("heuristic", "greedy", "random", v3, models / "tiny-2p.json", str(old), v2, "no-such-agent")
    assert [agents.observation_of(a) for a in specs] == ["v2", "v2", "v2", "v3", "v3", "v2", "v2", None]
    for name in agents.shipped():  # whatever ships: the layout its JSON names (v2 when it names none)
        shipped = json.loads((agents.MODELS / f"{name}.json").read_text())
        assert agents.observation_of(name) == shipped.get("observation", "v2")
    assert agents.observation_for(["heuristic", "random", str(old)]) == "v2"
    assert agents.observation_for(["heuristic", v3]) == "v3"
    assert agents.observation_for(v3) == "v3"  # one name alone
    loaded = agents.load(v3, game=VecGame("standard_en", 2, observation="v3"))
    assert agents.observation_for([loaded, "greedy"]) == "v3"  # an agent object says it too


def test_observation_for_loads_no_torch(models):
    code = (f"import sys, agents; print(agents.observation_for([{str(models / 'tiny-4p')!r}, 'heuristic']), "
            f"'torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["v3", "False"]


def test_a_v3_agent_at_a_table_without_the_memory_is_a_clear_error(models):
    """Why the tables choose: a v2 game cannot seat an agent trained on v3."""
    from agents.policy import ModelMismatchError
    with pytest.raises(ModelMismatchError, match="observation='v3'"):
        agents.load(str(models / "tiny-2p"), game=Table("standard_en", 2, seed=0, observation="v2").game)


# ---------------------------------------------------------------------- uno watch / uno play
def test_uno_watch_seats_a_v3_agent_and_its_recorded_round_replays(models, monkeypatch):
    made = spy_on(monkeypatch, terminal, "Table")
    records, lines = [], []
    assert terminal.watch("standard_en", 4, f"{models / 'tiny-4p'},heuristic", seed=5, quiet=True, ansi=False,
                          out=lines.append, record=records.append) == 0
    game = made[-1].game
    assert game.observer.version == "v3" and game.memory is not None
    assert "round over" in "\n".join(lines)
    assert len(records) == 1 and records[0].actions
    result = check(records[0])  # the round replays to the same end from its seed and actions
    assert result["winner"] == records[0].result["winner"]


def test_uno_watch_of_bots_keeps_the_cheaper_v2_layout(monkeypatch):
    made = spy_on(monkeypatch, terminal, "Table")
    assert terminal.watch("standard_en", 3, "heuristic,greedy,random", seed=1, quiet=True, ansi=False,
                          out=lambda *_: None) == 0
    game = made[-1].game
    assert game.observer.version == "v2" and game.memory is None


def test_uno_play_a_round_against_a_v3_agent(models, monkeypatch):
    """The person takes the first listed move each time and stops after the round."""
    made = spy_on(monkeypatch, terminal, "Table")
    lines = []

    def inp(prompt):
        return "n" if prompt.startswith("next round") else "0"

    assert terminal.play("standard_en", 2, str(models / "tiny-2p"), seat=1, seed=2, ansi=False, inp=inp,
                         out=lines.append) == 0
    table = made[-1]
    assert table.game.observer.version == "v3" and table.over
    assert any(ev.seat == 0 and not ev.forced for ev in table.events)  # the agent chose moves
    assert "round over" in "\n".join(map(str, lines))


# ---------------------------------------------------------------------- analysis (notebooks)
def test_simulate_rounds_with_a_v3_agent_by_path_or_object(models, monkeypatch):
    made = spy_on(monkeypatch, analysis, "VecGame")
    path = str(models / "tiny-2p")
    rec = analysis.simulate_rounds("standard_en", 2, 40, [path, "heuristic"], batch_size=16, seed=3)
    assert len(rec) == 40 and made[-1].observer.version == "v3"
    obj = agents.load(path, game=VecGame("standard_en", 2, observation="v3"))
    rec = analysis.simulate_rounds("standard_en", 2, 40, ["heuristic", obj], batch_size=16, seed=3)
    assert len(rec) == 40 and made[-1].observer.version == "v3"
    analysis.simulate_rounds("standard_en", 2, 8, ["heuristic", "play_first"], batch_size=8, seed=3)
    assert made[-1].observer.version == "v2"  # bots only: v2, as before
