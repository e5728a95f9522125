"""Verification by the engine itself: run an engine release's own kernel selection with what lies outside its
Python code simulated (platform facts, compiled extensions, optional packages).

environment (cached venvs) -> jobs (from records) -> probe (inside the engine venv) -> outcome (fold) -> run (record);
compare is used by checks/observed_cells.py. The atlas process never imports the engine or torch.
"""
