"""Repository-wide pytest setup.

The notebooks are collected by nbmake (see ``[tool.pytest.ini_options]``); their kernels inherit this
process's environment, so the test run shrinks their workloads with ``UNO_QUICK=1`` unless the caller
chose otherwise (``UNO_QUICK=0 python -m pytest notebooks/`` runs them in full).

Every process of the run (this one, the scripts the tests start, the notebooks' kernels) uses one OpenMP
thread unless the caller chose otherwise: on a busy machine a second torch or BLAS thread waits for a core
on every small product (a 1,024-step training smoke run took 150 s under load with torch's default threads
and 36 s with one). No test measures speed, so the suite loses nothing by it.
"""

import os

os.environ.setdefault("UNO_QUICK", "1")
os.environ.setdefault("MPLBACKEND", "Agg")
os.environ.setdefault("OMP_NUM_THREADS", "1")
