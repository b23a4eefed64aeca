"""The network: a fully connected residual net over one 11×11×F window.

The seed's architecture, chosen because it is cheap to evaluate (about
``121·F·N + 2·N²`` multiply-adds a board) yet reached 95.6% accuracy:

1. flatten the window; dense to ``width`` units with a bias and ReLU;
2. ``blocks`` residual blocks, each two dense ``width`` layers, the second
   added to the block's input before its ReLU;
3. two readouts from the last hidden layer: ``safe``, one sigmoid unit (the
   probability the target survives with PL moving first), and ``move``, a
   softmax over the 121 window points (PL's winning move, trained only where
   the subproblem has a ``TR`` inside the window).

No batch normalisation: the seed found it made training faster but added no
accuracy, and without it the numpy evaluator is a few matrix products.

Layer names are part of the packed-file contract (``model.quantize``):
``align``, ``block{i}_a``, ``block{i}_b``, ``safe``, ``move``.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

from pipeline.records import MOVES, WINDOW


@dataclass(frozen=True)
class NetworkOptions:
    """Shape and loss of the network; the defaults are the seed's."""

    width: int = 256
    blocks: int = 1
    l2: float = 1e-5
    learning_rate: float = 1e-3
    move_weight: float = 0.25
    # dropout after every hidden layer, in training only (0: none, the seed's)
    dropout: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)


def layer_names(blocks: int) -> list[str]:
    """Dense layers in evaluation order (the packed file stores them so)."""
    names = ["align"]
    for i in range(blocks):
        names += [f"block{i}_a", f"block{i}_b"]
    return names + ["safe", "move"]


def build_model(num_planes: int, options: NetworkOptions = NetworkOptions()):
    """An uncompiled Keras model from ``[B, 11, 11, F]`` to ``{"safe", "move"}``."""
    import keras
    from keras import layers

    def dense(units, name, activation=None):
        return layers.Dense(units, activation=activation, name=name,
                            kernel_regularizer=keras.regularizers.L2(options.l2))

    def dropped(x, name):
        return layers.Dropout(options.dropout, name=f"{name}_dropout")(x) if options.dropout else x

    planes = keras.Input((WINDOW, WINDOW, num_planes), name="planes")
    hidden = dropped(dense(options.width, "align", "relu")(layers.Flatten(name="flatten")(planes)), "align")
    for i in range(options.blocks):
        inner = dropped(dense(options.width, f"block{i}_a", "relu")(hidden), f"block{i}_a")
        inner = dense(options.width, f"block{i}_b")(inner)
        hidden = layers.ReLU(name=f"block{i}_relu")(layers.Add(name=f"block{i}_skip")([inner, hidden]))
        hidden = dropped(hidden, f"block{i}")
    outputs = {"safe": dense(1, "safe", "sigmoid")(hidden),
               "move": dense(MOVES, "move", "softmax")(hidden)}
    return keras.Model(planes, outputs, name="safety_net")


def compile_model(model, options: NetworkOptions = NetworkOptions()):
    """Adam on binary cross-entropy for ``safe`` plus weighted move cross-entropy.

    The move loss and its accuracy use the sample weights of
    ``model.dataset`` (zero where there is no ``TR`` in the window).
    """
    import keras

    model.compile(
        optimizer=keras.optimizers.Adam(options.learning_rate),
        loss={"safe": keras.losses.BinaryCrossentropy(),
              "move": keras.losses.SparseCategoricalCrossentropy()},
        loss_weights={"safe": 1.0, "move": options.move_weight},
        weighted_metrics={"safe": [keras.metrics.BinaryAccuracy(name="accuracy")],
                          "move": [keras.metrics.SparseCategoricalAccuracy(name="accuracy")]},
    )
    return model
