"""Generated pages of the documentation site (run by mkdocs-gen-files at build time).

The environment pages and the options page come from the code's own tables (``uno_env/docs.py``), the
benchmark plots from ``benchmarks/results/`` and the leaderboard from ``results/leaderboard/leaderboard.json``
(``training.leaderboard.page``), so the site cannot drift from the code or the records.
"""

from pathlib import Path

import mkdocs_gen_files

from training import leaderboard
from uno_env import docs

ROOT = Path(__file__).resolve().parent.parent

for name, text in docs.pages().items():
    with mkdocs_gen_files.open(name, "w") as f:
        f.write(text)

for png in sorted((ROOT / "benchmarks" / "results").glob("*.png")):
    with mkdocs_gen_files.open(f"benchmarks/{png.name}", "wb") as f:
        f.write(png.read_bytes())

with mkdocs_gen_files.open("leaderboard.md", "w") as f:
    f.write(leaderboard.page())
