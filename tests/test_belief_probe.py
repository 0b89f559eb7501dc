"""The observation probes run and print one well-formed JSON line each (tiny settings; no timing asserted): the
belief probe (research/) and the observation A/B benchmark (benchmarks/)."""

import json

import pytest


@pytest.mark.parametrize("module", ["research.belief_probe", "benchmarks.ab_observation"])
def test_the_observation_benchmarks_print_one_json_line(module, capsys):
    import importlib

    main = importlib.import_module(module).main
    module = module.split(".")[-1]
    assert main(["--smoke"]) == 0
    lines = [x for x in capsys.readouterr().out.splitlines() if x.strip()]
    assert len(lines) == 1
    line = json.loads(lines[0])
    assert line["bench"] == module
    if module == "belief_probe":
        assert line["v2_cross_entropy"] > 0 and line["v3_cross_entropy"] > 0 and line["test_decisions"] > 0
    else:
        assert line["v2_steps_per_s"] > 0 and line["v3_steps_per_s"] > 0 and line["memory_bytes_per_game"] > 0
