"""``python -m simlab``: the command line (same as the ``simlab`` script)."""

import sys

from simlab.cli import main

sys.exit(main())
