"""Reference solvers that our solver is benchmarked against."""
