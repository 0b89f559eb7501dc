"""Colour symmetry (agents.symmetry): renaming the colours of a one-sided deck maps a game onto another game.

The twin test deals a batch of games, renames the colours of every card, colour and memory entry into a second
batch, and plays both with the same random choices (renamed): at every step the renamed game's observations
(v3, every seat) and legal actions must be the original ones read through ``ColourMaps``.  It checks the maps
and, with them, that the rules of each one-sided preset treat the colours alike.
"""

from __future__ import annotations

import numpy as np
import pytest

import agents
from agents.policy import PolicyAgent
from agents.symmetry import ColourAveraged, ColourMaps
from uno_env import PRESETS, VecGame
from uno_env.core.state import OVER

ONE_SIDED = tuple(r for r, c in PRESETS.items() if c.deck != "flip112")


def _kind_map(deck, perm) -> np.ndarray:
    """kind -> the kind it becomes when colour ``c`` is renamed ``perm[c]`` (one-sided decks: a kind is a face)."""
    face_of = {(f.color, f.symbol, f.points): i for i, f in enumerate(deck.faces)}
    kind_of = {int(deck.kind_faces[k, 0]): k for k in range(deck.num_kinds)}
    out = []
    for k in range(deck.num_kinds):
        f = deck.faces[int(deck.kind_faces[k, 0])]
        out.append(kind_of[face_of[(int(perm[f.color]) if f.color >= 0 else f.color, f.symbol, f.points)]])
    return np.array(out)


def _rename_into(src: VecGame, dst: VecGame, maps: ColourMaps, i: int) -> None:
    """Write ``src``'s games, their colours renamed by ``maps.perms[i]``, into ``dst``: the cards, the colours
    and the table's memory (``core.memory``) of each game."""
    e, perm, C = src.engine, maps.perms[i], maps.C
    kmap = _kind_map(e.deck, perm)
    inv_k = np.argsort(kmap)
    st = src.state.copy()

    def col(c):
        return np.where((c >= 0) & (c < C), perm[np.clip(c, 0, C - 1)], c).astype(c.dtype)

    def bits(v):  # bit c -> bit perm[c], for the deck's colours
        out = v & ~np.array((1 << C) - 1, v.dtype)
        for c in range(C):
            out |= (((v >> c) & 1) << perm[c]).astype(v.dtype)
        return out

    st.hands, st.pile_counts = st.hands[:, :, inv_k], st.pile_counts[:, inv_k]
    st.draw, st.discard = kmap[st.draw].astype(st.draw.dtype), kmap[st.discard].astype(st.discard.dtype)
    st.color, st.prev_color, st.drew_on = col(st.color), col(st.prev_color), col(st.drew_on)
    st.drawn = np.where(st.drawn >= 0, kmap[np.clip(st.drawn, 0, None)], st.drawn).astype(st.drawn.dtype)
    st.mask = st.mask[:, np.argsort(maps.act[i])]
    st.held = np.zeros_like(st.held)
    for k in range(st.hands.shape[2]):
        st.held[:, :, e.KWORD[k]] |= np.where(st.hands[:, :, k] > 0, e.KBIT[k], 0).astype(st.held.dtype)
    dst.state.put(np.arange(st.batch_size), st)
    ms, md = src.memory, dst.memory
    for name in ms.ARRAYS:
        getattr(md, name)[...] = getattr(ms, name)
    T = ms.tally.shape[2]  # colour+wild | number+actions | declared colours
    md.tally[...] = ms.tally[:, :, np.r_[np.argsort(perm), np.arange(C, T - C), T - C + np.argsort(perm)]]
    md.known[...] = ms.known[..., inv_k]  # one-sided decks: a face is a kind
    md.shown[...] = ms.shown[:, inv_k]
    seat, face, colour = ms.history & 0xF, (ms.history >> 4) & 0xFF, (ms.history >> 12) - 1
    md.history[...] = seat | (kmap[face] << 4) | ((col(colour) + 1) << 12)  # entries past plays_n go unread
    md.lacks[...], md.held[...] = bits(ms.lacks), bits(ms.held)
    md.lack_n[...] = ms.lack_n[..., np.argsort(perm)]
    for name in ("last_col", "last_prev", "decl"):
        getattr(md, name)[...] = col(getattr(ms, name))


@pytest.mark.parametrize("rules", ONE_SIDED)
@pytest.mark.parametrize("players", [2, 4])
def test_renaming_the_colours_maps_every_position_onto_its_renamed_twin(rules, players):
    a = VecGame(rules, players, batch_size=1, seed=3, observation="v3", autoreset=False)
    maps = ColourMaps(a)
    rng = np.random.default_rng(0)
    for i in (9, 23):  # a cycle of the four colours, their reversal
        a = VecGame(rules, players, batch_size=32, seed=3 + i, observation="v3", autoreset=False)
        b = VecGame(rules, players, batch_size=32, seed=99, observation="v3", autoreset=False)
        _rename_into(a, b, maps, i)
        inv_act = np.argsort(maps.act[i])
        steps = 0
        while steps < 600:
            live = (a.state.phase != OVER).nonzero()[0]
            if live.size == 0:
                break
            np.testing.assert_array_equal(a.state.mask[live][:, inv_act], b.state.mask[live])
            for seat in range(players):
                seats = np.full(live.size, seat)
                np.testing.assert_array_equal(a.observer.observe(a.state, live, seats)[:, maps.obs[i]],
                                              b.observer.observe(b.state, live, seats))
            acts = np.array([rng.choice(np.flatnonzero(m)) for m in a.state.mask[live]])
            a.engine.step_rows(a.state, live, acts)
            b.engine.step_rows(b.state, live, maps.act[i][acts])
            steps += 1
        np.testing.assert_array_equal(a.state.winner, b.state.winner)
        assert steps > 50


def test_the_colour_maps_are_permutations_and_the_first_is_the_identity():
    maps = ColourMaps(VecGame("standard_en", 3, batch_size=1, seed=0, observation="v3"))
    assert len(maps.perms) == 24
    np.testing.assert_array_equal(maps.obs[0], np.arange(maps.obs.shape[1]))
    np.testing.assert_array_equal(maps.act[0], np.arange(maps.act.shape[1]))
    for row in [*maps.obs, *maps.act]:
        assert sorted(row.tolist()) == list(range(row.size))  # renaming loses and doubles nothing
    names = VecGame("standard_en", 3, batch_size=1, seed=0).engine.actions.names
    r_to_g = next(i for i, p in enumerate(maps.perms) if p.tolist() == [2, 1, 0, 3])  # red <-> green
    assert names[maps.act[r_to_g][names.index("play R5")]] == "play G5"
    assert names[maps.act[r_to_g][names.index("play W+4 G")]] == "play W+4 R"
    assert names[maps.act[r_to_g][names.index("play Y+2")]] == "play Y+2"


def _positions(players=2, n=64, seed=1):
    game = VecGame("standard_en", players, batch_size=n, seed=seed, observation="v3", autoreset=False)
    rng = np.random.default_rng(seed)
    for _ in range(5):  # a few random moves in, so the memory has something in it
        live = (game.state.phase != OVER).nonzero()[0]
        game.engine.step_rows(game.state, live, np.array([rng.choice(np.flatnonzero(m))
                                                          for m in game.state.mask[live]]))
    live = (game.state.phase != OVER).nonzero()[0]
    obs = game.observer.observe(game.state, live, game.state.actor[live].astype(np.intp))
    return game, obs, game.state.mask[live]


def test_averaging_over_every_renaming_gives_a_policy_that_plays_renamed_positions_the_same_way():
    game, obs, mask = _positions()
    avg = agents.load("ppo-standard_en-2p~colours", game=game)
    probs = avg.probabilities(obs, mask)
    maps = avg.maps
    assert np.allclose(probs.sum(1), 1.0, atol=1e-5) and not probs[~mask].any()
    for i in (5, 17):
        renamed = avg.probabilities(obs[:, maps.obs[i]], mask[:, np.argsort(maps.act[i])])
        np.testing.assert_allclose(renamed[:, maps.act[i]], probs, atol=1e-5)
    plain = PolicyAgent.load(agents.MODELS / "ppo-standard_en-2p.json", game=game)  # the network alone
    assert not np.allclose(plain.probabilities(obs[:, maps.obs[5]], mask[:, np.argsort(maps.act[5])])
                           [:, maps.act[5]], plain.probabilities(obs, mask), atol=1e-5)  # the network alone is not


def test_the_identity_renaming_alone_is_the_policy_itself():
    game, obs, mask = _positions(seed=2)
    plain = PolicyAgent.load(agents.MODELS / "ppo-standard_en-2p.json", game=game)
    one = ColourAveraged(plain, game, perms=[[0, 1, 2, 3]])
    np.testing.assert_allclose(one.probabilities(obs, mask), plain.probabilities(obs, mask), atol=1e-6)
    np.testing.assert_array_equal(one.act(obs, mask), plain.act(obs, mask))


def test_colour_averaging_names_what_is_wrong():
    with pytest.raises(ValueError, match="one-sided decks.*flip112"):
        ColourMaps(VecGame("flip_jp", 2, batch_size=1, seed=0, observation="v3"))
    with pytest.raises(ValueError, match="no-such-agent"):
        agents.load("no-such-agent~colours")
    with pytest.raises(ValueError, match="permutations of the 4 colours"):
        ColourMaps(VecGame("standard_en", 2, batch_size=1, seed=0), perms=[[0, 1, 1, 3]])
    game = VecGame("standard_en", 2, batch_size=1, seed=0)
    with pytest.raises(ValueError, match="action probabilities.*heuristic"):
        ColourAveraged(agents.load("heuristic", game=game), game)
    assert agents.observation_of("ppo-standard_en-2p~colours") == "v3"
    assert agents.locate("ppo-standard_en-2p~colours") == ("colours", None)


def test_an_export_that_says_it_plays_colour_averaged_loads_so_with_or_without_a_game(tmp_path):
    shipped = agents.load("ppo-standard_en-2p")  # its metadata: "play": "colour_average"
    assert isinstance(shipped, ColourAveraged) and shipped.name == "ppo-standard_en-2p"
    assert len(shipped.maps.perms) == 24 and shipped.observation == "v3"
    again = agents.load("ppo-standard_en-2p~colours", game=VecGame("standard_en", 2, batch_size=1, seed=0,
                                                                   observation="v3"))
    assert isinstance(again.policy, PolicyAgent)  # averaged once, not over averages
    game, obs, mask = _positions(seed=3)
    np.testing.assert_allclose(again.probabilities(obs, mask), shipped.probabilities(obs, mask), atol=1e-6)
    plain = PolicyAgent.load(agents.MODELS / "ppo-standard_en-2p.json", game=game)
    assert isinstance(plain, PolicyAgent) and plain.meta["play"] == "colour_average"
    plain.export(tmp_path / "raw", game)  # an export without the key plays as the network
    assert isinstance(agents.load(str(tmp_path / "raw"), game=game), PolicyAgent)


def test_a_path_with_its_json_suffix_followed_by_colours_or_a_member_is_not_read_as_that_file(tmp_path):
    """Regression: "run/agent.json~colours" used to load run/agent.json alone, neither averaged nor warned of
    (Path.with_suffix read ".json~colours" as the suffix), and "run/agent.json+heuristic" its first member."""
    for ext in (".json", ".pt"):
        (tmp_path / f"agent{ext}").write_text("{}")
    assert agents.locate(str(tmp_path / "agent.json")) == ("export", tmp_path / "agent.json")
    assert agents.locate(str(tmp_path / "agent")) == ("export", tmp_path / "agent.json")
    assert agents.locate(str(tmp_path / "agent.json~colours")) == ("colours", None)
    assert agents.locate(str(tmp_path / "agent.json+heuristic")) == ("ensemble", None)
    assert agents.locate(str(tmp_path / "agent.v2")) == ("unknown", None)
