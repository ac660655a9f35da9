"""``python -m simlab``: the command line (same as the ``simlab`` script)."""

import sys

from simlab.course.cli import main

sys.exit(main())
