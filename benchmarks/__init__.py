"""The benchmarks of docs/operating.md (``make bench``, ``make bench-solver``, ...), run as
scripts."""
