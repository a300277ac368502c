"""Tools for working on paiju from a source checkout, shared by the benchmarks (``bench/``), the experiments
(``research/``) and the test tooling (``tests/bank/record.py``).

They live in the package, not beside the scripts, because tests and tools import them: ``bench/`` and
``research/`` hold scripts that nothing else may import (``tests/test_layout.py`` checks it).  Nothing in the
product imports this package.
"""
