"""A forkserver preload that ends the forkserver as it starts, as a crash in a stage's preload
would (tests/test_forked_workers.py); only a forkserver ever imports it."""
import os

os._exit(3)
