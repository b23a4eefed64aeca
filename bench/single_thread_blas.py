"""BLAS on one thread, unless the environment says otherwise: import this before numpy.

The network's products in a guided solve are small; on a loaded machine a
threaded BLAS spent 20 times longer on them than one thread (docs/solver.md,
"Guided search").  BLAS reads these variables once, when numpy loads it.
"""
import os

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")
