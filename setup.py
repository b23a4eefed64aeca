# Shim so that Beam's --setup_file can ship the package to remote workers.
from setuptools import setup; setup()
