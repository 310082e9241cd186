"""`python -m textguard_pipeline.cli …` (what the tests start as a process)."""

import sys

from . import main

sys.exit(main())
