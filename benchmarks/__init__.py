"""The benchmarks of the README (``make bench``, ``make bench-solver``, ...), run as scripts."""
