"""The network: training, cross-validation, quantization, reports and inference.

It reads the records' contract from :mod:`pipeline.formats.records`; the
numpy evaluator (:mod:`model.numpy_net`) and the packed file
(:mod:`model.packed`) need no TensorFlow.
"""
