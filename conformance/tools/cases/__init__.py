"""The scripts that author the conformance cases, one group of files per game
(``build_cases.py`` runs them)."""
