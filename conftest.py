"""Settings of the test run, loaded by pytest before any test module (and before numpy).

BLAS on one thread per process. The suite runs as one pytest-xdist worker per core, each starting
notebook kernels; OpenBLAS's default of one thread per core would then put two or more busy
threads on each core, and small matrix functions slow down by orders of magnitude (scipy's expm
of an 8 x 8 matrix: 15 us on one thread, 1-4 ms with the default threads on this 2-core machine
under load). The kernels that nbval and the student-path tests start inherit the setting. A
variable already set in the environment wins.
"""

import os

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")
