"""Trains a small classifier on scikit-learn's digits data set and exports it from JAX.

Run on demand (never at test time):
    python examples/digits/export.py
Writes next to this file:
    digits.mlir       the trained model as StableHLO text (weights embedded as constants)
    input.npy         one held-out 8x8 image, float32 [1, 64]
    expected.npy      JAX's output for it (class probabilities, float32 [1, 10])
and prints the held-out accuracy and the label of input.npy.
Needs: jax, scikit-learn, numpy (from PyPI).
"""
import os

import jax
import jax.numpy as jnp
import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

HERE = os.path.dirname(os.path.abspath(__file__))


def init(key, sizes):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        key, sub = jax.random.split(key)
        params.append((jax.random.normal(sub, (n_in, n_out), jnp.float32) * jnp.sqrt(2.0 / n_in),
                       jnp.zeros((n_out,), jnp.float32)))
    return params


def logits(params, x):
    for w, b in params[:-1]:
        x = jax.nn.relu(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def loss(params, x, y):
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits(params, x)) * jax.nn.one_hot(y, 10), axis=-1))


@jax.jit
def step(params, x, y, lr):
    grads = jax.grad(loss)(params, x, y)
    return [(w - lr * gw, b - lr * gb) for (w, b), (gw, gb) in zip(params, grads)]


def main():
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int32)
    x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.25, random_state=0)
    params = init(jax.random.PRNGKey(0), [64, 32, 10])
    for _ in range(1500):
        params = step(params, x_train, y_train, 0.5)
    accuracy = float(jnp.mean(jnp.argmax(logits(params, x_test), -1) == y_test))

    def predict(image):
        return jax.nn.softmax(logits(params, image), axis=-1)

    sample = x_test[:1]
    exported = jax.export.export(jax.jit(predict))(jax.ShapeDtypeStruct(sample.shape, sample.dtype))
    with open(os.path.join(HERE, "digits.mlir"), "w") as f:
        f.write(exported.mlir_module())
    np.save(os.path.join(HERE, "input.npy"), sample)
    np.save(os.path.join(HERE, "expected.npy"), np.asarray(predict(sample)))
    print(f"held-out accuracy {accuracy:.3f}; input.npy is a {int(y_test[0])}")


if __name__ == "__main__":
    main()
