"""Writes the shape-polymorphic JAX exports test_dynamic_models runs: each model's
jax.export text (model_NAME.mlir, a symbolic dimension in its input) and, for several
sizes of that dimension, its inputs and JAX's results (NAME_SIZE_in_I.npy,
NAME_SIZE_out_I.npy). Run with the test venv's Python (jax 0.10.2) from this folder."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import export, lax

rng = np.random.default_rng(7)


def param(*shape):
    return jnp.asarray(rng.standard_normal(shape).astype(np.float32) * 0.3)


W1, B1, W2, B2 = param(16, 32), param(32), param(32, 4), param(4)


def mlp(x):
    h = jnp.maximum(x @ W1 + B1, 0)
    return jax.nn.softmax(h @ W2 + B2, axis=-1)


WQ, WK, WV, WO, F1, F2 = param(8, 8), param(8, 8), param(8, 8), param(8, 8), param(8, 16), param(16, 8)


def layer_norm(x):
    m = x.mean(-1, keepdims=True)
    return (x - m) / jnp.sqrt(((x - m) ** 2).mean(-1, keepdims=True) + 1e-5)


def transformer(x):  # x: (seq, 8), attention over the symbolic sequence length
    h = layer_norm(x)
    a = jax.nn.softmax((h @ WQ) @ (h @ WK).T / jnp.sqrt(8.0), axis=-1) @ (h @ WV)
    x = x + a @ WO
    return x + jax.nn.gelu(layer_norm(x) @ F1) @ F2


K1, D1 = param(3, 3, 1, 4), param(4 * 4 * 4, 3)


def convnet(x):  # x: (batch, 8, 8, 1)
    y = lax.conv_general_dilated(x, K1, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    y = jnp.maximum(y, 0)
    y = lax.reduce_window(y, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4
    return y.reshape(y.shape[0], -1) @ D1


WS = param(4, 4)


def scan(xs):  # xs: (length, 4): a recurrence over the symbolic length
    def step(h, x):
        h = jnp.tanh(h @ WS + x)
        return h, h * 2

    return lax.scan(step, jnp.zeros(4, jnp.float32), xs)


MODELS = [
    ("mlp", mlp, "b, 16", lambda n: (n, 16), [1, 3, 13]),
    ("transformer", transformer, "s, 8", lambda n: (n, 8), [1, 5, 13]),
    ("convnet", convnet, "b, 8, 8, 1", lambda n: (n, 8, 8, 1), [1, 3, 13]),
    ("scan", scan, "n, 4", lambda n: (n, 4), [1, 5, 13]),
]

for name, fn, spec, shape_of, sizes in MODELS:
    arg = jax.ShapeDtypeStruct(export.symbolic_shape(spec), jnp.float32)
    with open(f"model_{name}.mlir", "w") as f:
        f.write(export.export(jax.jit(fn))(arg).mlir_module())
    for n in sizes:
        x = rng.uniform(-1, 1, shape_of(n)).astype(np.float32)
        np.save(f"{name}_{n}_in_0.npy", x)
        outs = fn(jnp.asarray(x))
        for i, o in enumerate(outs if isinstance(outs, tuple) else (outs,)):
            np.save(f"{name}_{n}_out_{i}.npy", np.asarray(o))
