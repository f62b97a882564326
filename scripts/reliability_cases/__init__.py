"""Reliability cases for scripts/reliability: one module per round of hardening.

Each module other than `harness` defines `run(results, binary)`; scripts/reliability runs every
module in name order. A module that needs its own flags starts its own `harness.Server`.
"""
