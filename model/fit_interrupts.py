"""Ctrl-C and SIGTERM while the network trains, acted on between batches.

Python runs a signal's handler between two bytecodes of the main thread, and
during ``model.fit`` that can be inside TensorFlow: a C++ routine that calls
back into Python (converting a value for a TensorBoard summary at an epoch's
end, say) gets the KeyboardInterrupt half way through, and the process may
die of a segmentation fault instead of keeping its checkpoints and saying
how to go on (one SIGTERM in eight at an epoch's end, on a loaded 2-core
machine).  So while the network trains, SIGINT and SIGTERM are only noted,
and a callback raises the KeyboardInterrupt at the next batch's or epoch's
edge, in plain Python.  A second signal before then raises at once: a user
who insists is not kept waiting.
"""
from __future__ import annotations

import contextlib
import signal
import threading

SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def interrupts_between_batches():
    """Meanwhile, a SIGINT or SIGTERM whose handler is Python's (Ctrl-C's KeyboardInterrupt,
    or :func:`model.checkpoints.terminate_as_interrupt`) is noted, and its handler runs at the
    next hook of the yielded Keras callback (the last of ``fit``'s callbacks, so an epoch's
    checkpoints are written first), or on leaving when no hook came.  Elsewhere than on the
    main thread nothing changes."""
    import keras

    pending = []
    handlers = {}
    if threading.current_thread() is threading.main_thread():
        handlers = {n: h for n in SIGNALS if callable(h := signal.getsignal(n))}

    def act_on_pending():
        noted = pending[:]
        pending.clear()
        for number, frame in noted:   # in order, until a handler raises
            handlers[number](number, frame)

    def note(number, frame):
        pending.append((number, frame))
        if len(pending) > 1:
            act_on_pending()

    class RaiseBetweenBatches(keras.callbacks.Callback):
        def _act(self, batch_or_epoch, logs=None):
            act_on_pending()

        on_train_batch_begin = on_train_batch_end = on_test_batch_begin = on_test_batch_end = _act
        on_epoch_begin = on_epoch_end = _act

    for number in handlers:
        signal.signal(number, note)
    try:
        yield RaiseBetweenBatches()
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
    act_on_pending()
