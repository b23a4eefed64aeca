"""The features stage's workers: its steps and the feature planes' kernels (:mod:`pipeline.beam.preload`)."""
from pipeline.beam.preload import ready
from pipeline.warm_up import warm_up_planes

ready("pipeline.features_pipeline", warm_up_planes)
