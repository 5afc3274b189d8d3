"""``python -m courtside``: the same command as ``courtside``, for when the venv's bin is not on the PATH."""

import sys

from courtside.cli import main

sys.exit(main())
