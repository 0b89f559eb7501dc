#!/usr/bin/env bash
# A test session at the declared minimum versions: a fresh venv with numpy, gymnasium, pettingzoo,
# stable-baselines3 and sb3-contrib pinned to the floors pyproject.toml declares (read from it, so the
# floors and this session cannot drift apart), then the core and environment tests.  .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${MIN_VENV:-/tmp/uno-env-min-versions}
export PIP_DISABLE_PIP_VERSION_CHECK=1
rm -rf "$VENV"
python3 -m venv "$VENV"
PY="$VENV/bin/python"
PINS=$("$PY" - <<'PY'
import re, tomllib
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
wanted = {"numpy", "gymnasium", "pettingzoo", "threadpoolctl", "stable-baselines3", "sb3-contrib"}
pins = []
for req in project["dependencies"] + project["optional-dependencies"]["train"]:
    m = re.match(r"\s*([A-Za-z0-9_.-]+)\s*>=\s*([0-9][^,;\s]*)", req)
    if m and m.group(1).lower() in wanted:
        pins.append(f"{m.group(1)}=={m.group(2)}")
missing = wanted - {p.split("==")[0].lower() for p in pins}
assert not missing, f"no '>=' floor declared for {missing}"
print(" ".join(pins))
PY
)
echo "minimum versions: $PINS"
# a CPU build of PyTorch (SB3 needs one; not among the floors tested), then the floors
"$PY" -m pip install --quiet "torch==2.13.0" || "$PY" -m pip install --quiet torch --index-url https://download.pytorch.org/whl/cpu
# shellcheck disable=SC2086
"$PY" -m pip install --quiet $PINS pytest hypothesis
"$PY" -m pip install --quiet --no-deps -e .
"$PY" -m pip list 2>/dev/null | grep -i -E "^(numpy|gymnasium|pettingzoo|stable.baselines3|sb3.contrib|threadpoolctl) "
# the pyproject's addopts run notebooks under nbmake, which this session does not install
"$PY" -m pytest -o addopts="" -p no:cacheprovider -q \
    tests/test_rules_standard.py tests/test_scenarios.py tests/test_scalar.py tests/test_determinism.py \
    tests/test_positions.py tests/test_observation.py tests/test_invariants.py tests/test_config.py \
    tests/test_properties.py tests/test_layering.py tests/test_version_policy.py \
    tests/test_aec.py tests/test_training_envs.py tests/test_records.py
