"""Repository-wide pytest setup.

The notebooks are collected by nbmake (see ``[tool.pytest.ini_options]``); their kernels inherit this
process's environment, so the test run shrinks their workloads with ``UNO_QUICK=1`` unless the caller
chose otherwise (``UNO_QUICK=0 python -m pytest notebooks/`` runs them in full).
"""

import os

os.environ.setdefault("UNO_QUICK", "1")
os.environ.setdefault("MPLBACKEND", "Agg")
