"""The solve-all stage's workers: its steps and the solver's kernels (:mod:`pipeline.beam.preload`)."""
from pipeline.beam.preload import ready
from pipeline.warm_up import warm_up_solver

ready("pipeline.solve_all_pipeline", warm_up_solver)
