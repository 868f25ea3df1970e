"""Benchmarks for sevenbridge (see docs/explanation/performance.md)."""
