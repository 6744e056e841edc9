"""``python -m boardlab`` is the ``boardlab`` command."""

import sys

from boardlab.cli.main import main

sys.exit(main())
