"""The four games.  Each package has the same shape: rules.py, config.py, engine.py, bots.py, cli.py."""
