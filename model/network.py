"""The network over one 11×11×F window: dcnn-eval's dense residual net, or a convolutional one.

``dense`` (the default) is the architecture of the original dcnn-eval
network, chosen because it is cheap to evaluate (about ``121·F·N + 2·N²``
multiply-adds a board) yet reached 95.6% accuracy on the original
pipeline's data:

1. flatten the window; dense to ``width`` units with a bias and ReLU;
2. ``blocks`` residual blocks, each two dense ``width`` layers, the second
   added to the block's input before its ReLU;
3. two readouts from the last hidden layer: ``safe``, one sigmoid unit (the
   probability the target survives with PL moving first), and ``move``, a
   softmax over the 121 window points (PL's winning move, trained only where
   the subproblem has a ``TR`` inside the window).

``conv`` replaces the dense layers by 3×3 convolutions of ``channels``
planes ("same" padding, so every layer stays 11×11): ``align`` and the
blocks' two layers are convolutions; the value readout is a 1×1 convolution
to ``VALUE_PLANES`` planes, flattened, a dense layer of ``VALUE_WIDTH`` units
and the sigmoid ``safe``; the move readout is a 1×1 convolution to one plane
whose 121 points go through the softmax.  A shape learnt in one place of the
window is then known in every place, which is what a network must do on
problems it has not seen: with 32 channels and 2 blocks, cross-validation by
problem scored it well above the dense net on every fold (measured:
RESULTS.md, "The conv network: cross-validation, problem split, 5 bits"),
at about 5.4 M multiply-adds a board (F = 25) instead of 0.9 M.

Both may carry a third readout, ``end_state``: for every point of the window,
a softmax over who holds it once the solver's principal variation is played
out (empty, the target's colour, the other colour), ``[B, 121, 3]`` (dense: a
dense layer of 121·3 units; conv: a 1×1 convolution to 3 planes), trained
with weight ``end_state_weight`` where a record has an end state; at weight 0
the network is built without it.

No batch normalisation: the original pipeline found it made training faster
but added no accuracy, and without it the numpy evaluator is a few matrix
products.

Layer names are part of the packed-file contract (``model.quantize``), in
evaluation order from ``layer_names``.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

from pipeline.formats.records import END_STATE_CLASSES, MOVES, WINDOW


ARCHITECTURES = ("dense", "conv")
# The conv value readout: a 1×1 convolution to this many planes, then a dense layer of this width.
VALUE_PLANES = 4
VALUE_WIDTH = 128
# The end-state loss weight of train and crossval when not told (NetworkOptions keeps 0,
# dcnn-eval's network): of 0, 0.25 and 1 the only weight that raised both the pooled and the
# per-problem accuracy of the conv network on unseen problems, and it leaves the value loss
# dominant (RESULTS.md, "The end-state head: cross-validation").
DEFAULT_END_STATE_WEIGHT = 0.25
# The options that fix the shape of the weights (what a resumed run must keep).
SHAPE_OPTIONS = ("architecture", "width", "channels", "blocks")


@dataclass(frozen=True)
class NetworkOptions:
    """Shape and loss of the network; the defaults are those of the original dcnn-eval network."""

    architecture: str = "dense"
    width: int = 256          # dense: units of every hidden layer
    channels: int = 32        # conv: planes of every hidden layer
    blocks: int = 1
    l2: float = 1e-5
    learning_rate: float = 1e-3
    move_weight: float = 0.25
    # dropout after every hidden layer, in training only (0: none, as in dcnn-eval)
    dropout: float = 0.0
    # weight of the end-state loss; 0 (dcnn-eval's network, and every run from before the
    # head) builds the network without the end-state head
    end_state_weight: float = 0.0

    @property
    def end_state(self) -> bool:
        return self.end_state_weight > 0

    def to_dict(self) -> dict:
        return asdict(self)


def options_in_use(options: dict) -> dict:
    """``options`` (as ``to_dict`` gives them) without the shape option the architecture ignores.

    Runs from before the conv architecture have neither ``architecture`` nor
    ``channels``; they were dense.
    """
    unused = "width" if options.get("architecture", "dense") == "conv" else "channels"
    return {key: value for key, value in options.items() if key != unused}


def layer_names(blocks: int, architecture: str = "dense", end_state: bool = False) -> list[str]:
    """Layers with weights, in evaluation order (the packed file stores them so); the
    end-state head's layer, when there is one, comes last."""
    if architecture not in ARCHITECTURES:
        raise ValueError(f"unknown architecture {architecture!r}; expected one of {ARCHITECTURES}")
    names = ["align"]
    for i in range(blocks):
        names += [f"block{i}_a", f"block{i}_b"]
    if architecture == "conv":
        names += ["value_conv", "value_dense", "safe", "move_conv"]
    else:
        names += ["safe", "move"]
    return names + [end_state_layer(architecture)] if end_state else names


def end_state_layer(architecture: str) -> str:
    """The name of the end-state head's layer with weights."""
    return "end_state_conv" if architecture == "conv" else "end_state_dense"


def build_model(num_planes: int, options: NetworkOptions = NetworkOptions()):
    """An uncompiled Keras model from ``[B, 11, 11, F]`` to ``{"safe", "move"}``, and
    ``"end_state"`` when ``options.end_state``."""
    if options.architecture not in ARCHITECTURES:
        raise ValueError(f"unknown architecture {options.architecture!r}; expected one of {ARCHITECTURES}")
    if options.architecture == "conv":
        return _build_conv(num_planes, options)
    return _build_dense(num_planes, options)


def _build_dense(num_planes: int, options: NetworkOptions):
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
    if options.end_state:
        logits = dense(MOVES * END_STATE_CLASSES, end_state_layer("dense"))(hidden)
        outputs["end_state"] = _end_state_softmax(logits)
    return keras.Model(planes, outputs, name="safety_net")


def _end_state_softmax(logits):
    """``[B, 121, 3]`` probabilities from logits laid out as ``[B, 121·3]`` or ``[B, 11, 11, 3]``."""
    from keras import layers

    points = layers.Reshape((MOVES, END_STATE_CLASSES), name="end_state_points")(logits)
    return layers.Softmax(name="end_state")(points)


def _build_conv(num_planes: int, options: NetworkOptions):
    import keras
    from keras import layers

    regularizer = keras.regularizers.L2(options.l2)

    def conv(planes, size, name, activation=None):
        return layers.Conv2D(planes, size, padding="same", activation=activation, name=name,
                             kernel_regularizer=regularizer)

    def dropped(x, name):
        return layers.Dropout(options.dropout, name=f"{name}_dropout")(x) if options.dropout else x

    planes = keras.Input((WINDOW, WINDOW, num_planes), name="planes")
    hidden = dropped(conv(options.channels, 3, "align", "relu")(planes), "align")
    for i in range(options.blocks):
        inner = dropped(conv(options.channels, 3, f"block{i}_a", "relu")(hidden), f"block{i}_a")
        inner = conv(options.channels, 3, f"block{i}_b")(inner)
        hidden = layers.ReLU(name=f"block{i}_relu")(layers.Add(name=f"block{i}_skip")([inner, hidden]))
        hidden = dropped(hidden, f"block{i}")
    value = layers.Flatten(name="value_flatten")(conv(VALUE_PLANES, 1, "value_conv", "relu")(hidden))
    value = layers.Dense(VALUE_WIDTH, activation="relu", name="value_dense",
                         kernel_regularizer=regularizer)(value)
    move = layers.Flatten(name="move_flatten")(conv(1, 1, "move_conv")(hidden))
    outputs = {"safe": layers.Dense(1, activation="sigmoid", name="safe",
                                    kernel_regularizer=regularizer)(value),
               "move": layers.Softmax(name="move")(move)}
    if options.end_state:
        outputs["end_state"] = _end_state_softmax(conv(END_STATE_CLASSES, 1, end_state_layer("conv"))(hidden))
    return keras.Model(planes, outputs, name="safety_convnet")


def compile_model(model, options: NetworkOptions = NetworkOptions()):
    """Adam on binary cross-entropy for ``safe`` plus weighted move cross-entropy, and
    weighted end-state cross-entropy when the model has that head.

    The move loss and its accuracy use the sample weights of
    ``model.dataset`` (zero where there is no ``TR`` in the window); the
    end-state ones a weight a point (zero past the board edge and in records
    without an end state).
    """
    import keras

    loss = {"safe": keras.losses.BinaryCrossentropy(),
            "move": keras.losses.SparseCategoricalCrossentropy()}
    loss_weights = {"safe": 1.0, "move": options.move_weight}
    metrics = {"safe": [keras.metrics.BinaryAccuracy(name="accuracy")],
               "move": [keras.metrics.SparseCategoricalAccuracy(name="accuracy")]}
    if "end_state" in model.output_names:
        loss["end_state"] = keras.losses.SparseCategoricalCrossentropy()
        loss_weights["end_state"] = options.end_state_weight
        metrics["end_state"] = [keras.metrics.SparseCategoricalAccuracy(name="accuracy")]
    model.compile(optimizer=keras.optimizers.Adam(options.learning_rate), loss=loss,
                  loss_weights=loss_weights, weighted_metrics=metrics)
    return model
