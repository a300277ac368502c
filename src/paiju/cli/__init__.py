"""The ``paiju`` command line."""
