"""Only for the optional compiled build: ``PAIJU_COMPILE=1 pip install .`` compiles the engines with mypyc.

Everything else about the package is in pyproject.toml; without PAIJU_COMPILE this adds nothing and the install
is the pure one.  The modules and options are those of ``scripts/build_compiled.py`` (which also builds them into
a directory of their own, cached, for the suite and the benchmarks).  Not for an editable install: the extension
modules would land in src/ and shadow the pure modules there.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

if os.environ.get("PAIJU_COMPILE") == "1":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "scripts"))
    try:
        import mypyc  # noqa: F401
    except ImportError:  # the build frontend's first question: what the build needs (then it asks again)
        setup(setup_requires=["mypy>=1.10"])
    else:
        from build_compiled import MODULES, extensions

        setup(ext_modules=extensions([f"src/{m}" for m in MODULES]))
else:
    setup()
