"""The research notebooks: they run top to bottom in quick mode, and the saved ones carry a full run.

The test run executes every notebook with nbmake (``testpaths`` includes ``notebooks/``, and the root
``conftest.py`` sets ``UNO_QUICK=1``); this file checks what was committed.
"""

import json
from pathlib import Path

import pytest

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
EXPECTED = ["01_quickstart", "02_strategy_tournament", "03_rules_research", "04_training", "05_flip"]


def test_the_five_notebooks_are_there():
    assert set(EXPECTED) <= {p.stem for p in NOTEBOOKS}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_saved_notebook_carries_a_full_run(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = nb["cells"]
    assert cells[0]["cell_type"] == "markdown" and "Question" in "".join(cells[0]["source"])
    code = [c for c in cells if c["cell_type"] == "code"]
    assert 'QUICK = os.environ.get("UNO_QUICK") == "1"' in "".join(code[0]["source"])
    assert all(c["execution_count"] is not None for c in code), "every code cell was executed"
    outputs = [o for c in code for o in c["outputs"]]
    assert not [o for o in outputs if o["output_type"] == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), "at least one figure is saved"
    text = "".join("".join(o.get("text", "")) for o in outputs)
    assert "quick mode" not in text, "the saved outputs are those of a full run, not of UNO_QUICK=1"
    assert path.stat().st_size < 1_500_000
