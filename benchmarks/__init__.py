"""Benchmarks for sevenbridge (see docs/performance.md)."""
