"""Programs beyond the zoo (issue 11): single JAX operations and small blocks that real models
use and the zoo does not time on their own, on Kiln's cpu device against XLA:CPU.

Started by bench/beyond.sh (bench/run --beyond), which sets up the pinned Python
environment and builds Kiln first:
    bench/beyond.sh [--kiln PATH] [--only NAME,...] [--rounds N]

Each program (PROGRAMS below; float32 inputs from a seeded generator) is lowered by jax.jit
to StableHLO text, its inputs saved as .npy, into bench/models/beyond/. Per round:
  Kiln      `kiln bench PROGRAM --input ...` (its default settings; the compile cache off),
            its median.
  XLA:CPU   the jitted function in this process, called until a second has passed (at least
            20 calls) after one warm-up call; the median.
The table gives the medians of --rounds rounds (default 3), Kiln / XLA:CPU, and how many ops
Kiln interpreted. XLA:CPU's own time swings between rounds on these machines (its
segment_sum read 0.48 and 1.3 ms in one session), hence the rounds. Results are not checked
here: the ops' results are tested in tests/ (the differential harness, the cases files).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import peers  # noqa: E402
import tiers  # noqa: E402  (load_avg)

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

OUT = os.path.join(HERE, "beyond")


def programs():
    """name -> (function, inputs)."""
    rng = np.random.default_rng(0)

    def f32(*shape, scale=1.0):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    def ints(hi, n):
        return rng.integers(0, hi, n).astype(np.int32)

    lax = jax.lax
    return {
        "layernorm": (lambda x: (x - x.mean(-1, keepdims=True)) / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5),
                      [f32(512, 1024)]),
        "softmax_xent": (lambda x, y: -jnp.sum(jax.nn.log_softmax(x) * jax.nn.one_hot(y, 1000), -1).mean(),
                         [f32(256, 1000), ints(1000, 256)]),
        "causal_attention": (lambda q, k, v: jax.nn.softmax(
            jnp.where(jnp.tril(jnp.ones((256, 256), bool)), q @ k.T / 8, -1e9)) @ v,
            [f32(256, 64), f32(256, 64), f32(256, 64)]),
        "gelu_exact": (lambda x: jax.nn.gelu(x, approximate=False), [f32(256, 4096, scale=2)]),
        "gelu_tanh_mlp": (lambda x, w: jax.nn.gelu(x @ w), [f32(256, 1024), f32(1024, 1024, scale=0.03)]),
        "erf": (lax.erf, [f32(256, 4096, scale=2)]),
        "sinh": (jnp.sinh, [f32(256, 4096, scale=2)]),
        "logsumexp": (lambda x: jax.nn.logsumexp(x, axis=-1), [f32(1024, 1024)]),
        "rmsnorm_rotate": (lambda x, c, s: (x * lax.rsqrt((x * x).mean(-1, keepdims=True) + 1e-6)) * c
                           + jnp.roll(x, 32, -1) * s, [f32(512, 64), f32(512, 64), f32(512, 64)]),
        "cumsum": (lambda x: jnp.cumsum(x, axis=1), [f32(256, 4096)]),
        "top_k": (lambda x: lax.top_k(x, 16), [f32(512, 2048)]),
        "sort": (lambda x: jnp.sort(x, axis=-1), [f32(256, 4096)]),
        "argsort": (lambda x: jnp.argsort(x, axis=-1), [f32(256, 1024)]),
        "segment_sum": (lambda x, i: jax.ops.segment_sum(x, i, 512), [f32(65536, 32), ints(512, 65536)]),
        "scatter_add": (lambda x, i, u: x.at[i].add(u), [f32(4096, 64), ints(4096, 8192), f32(8192, 64)]),
        "gather_rows": (lambda e, i: e[i], [f32(50000, 128), ints(50000, 4096)]),
        "avg_pool": (lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 2, 2, 1), "SAME") / 9,
                     [f32(16, 64, 64, 32)]),
        "max_pool_grad": (lambda x: jax.grad(lambda y: lax.reduce_window(
            y, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID").sum())(x), [f32(16, 64, 64, 32)]),
        "conv_transpose": (lambda x, w: lax.conv_transpose(x, w, (2, 2), "SAME",
                                                           dimension_numbers=("NHWC", "HWIO", "NHWC")),
                           [f32(8, 32, 32, 64), f32(3, 3, 64, 32, scale=0.1)]),
        "batched_matmul": (lambda a, b: jnp.einsum("bij,bjk->bik", a, b), [f32(64, 128, 64), f32(64, 64, 128)]),
        "transpose": (lambda x: x.T + 1, [f32(4096, 4096)]),
        "sum_all": (lambda x: x.sum(), [f32(4096, 4096)]),
        "column_softmax": (lambda x: jax.nn.softmax(x, axis=0), [f32(2048, 1024)]),
        "fori_small": (lambda x: lax.fori_loop(0, 100, lambda i, c: jnp.tanh(c * 0.99 + 0.01), x), [f32(1024)]),
        "resize": (lambda x: jax.image.resize(x, (8, 128, 128, 16), "bilinear"), [f32(8, 64, 64, 16)]),
        "batchnorm_train": (lambda x, g: (x - x.mean(0)) * lax.rsqrt(x.var(0) + 1e-5) * g, [f32(4096, 512), f32(512)]),
        "conv_nchw": (lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW")),
                      [f32(8, 64, 32, 32), f32(64, 64, 3, 3, scale=0.1)]),
        "complex_matmul": (lambda a, b: (a + 1j * b) @ (b - 1j * a), [f32(256, 256), f32(256, 256)]),
        "int_matmul": (lambda a, b: a @ b, [ints(100, 256 * 512).reshape(256, 512), ints(100, 512 * 256).reshape(512, 256)]),
        "take_along_axis": (lambda x, i: jnp.take_along_axis(x, i, axis=1), [f32(1024, 512), ints(512, 1024 * 64).reshape(1024, 64)]),
        "searchsorted": (lambda s, q: jnp.searchsorted(s, q), [np.sort(f32(4096)), f32(1 << 20)]),
        "tiny_batched_matmul": (lambda a, b: jnp.einsum("bij,bjk->bik", a, b), [f32(100000, 3, 3), f32(100000, 3, 3)]),
        "int_divmod": (lambda a, b: (a // b) + (a % b), [ints(1 << 20, 1 << 20) - (1 << 19), ints(97, 1 << 20) + 1]),
        "mask_any": (lambda x: (x > 3.5).any(axis=1), [f32(4096, 1024)]),
        "attention_heads": (lambda q, k: jax.nn.softmax(jnp.einsum("bhqd,bhkd->bhqk", q, k) / 8, axis=-1),
                            [f32(4, 8, 128, 64), f32(4, 8, 128, 64)]),
        "dropout": (lambda k, x: jnp.where(jax.random.bernoulli(jax.random.wrap_key_data(k), 0.9, x.shape),
                                           x / 0.9, 0),
                    [np.asarray(jax.random.key_data(jax.random.PRNGKey(0))), f32(512, 1024)]),
    }


def export(name, fn, inputs):
    """Writes the program and its inputs; returns (jitted function, kiln bench arguments)."""
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    f = jax.jit(fn)
    with open(os.path.join(d, "model.mlir"), "w") as out:
        out.write(f.lower(*inputs).as_text())
    args = [os.path.join(d, "model.mlir")]
    for i, a in enumerate(inputs):
        path = os.path.join(d, f"input_{i}.npy")
        np.save(path, a)
        args += ["--input", path]
    return f, args


def time_xla(f, inputs):
    jax.block_until_ready(f(*inputs))
    times, end = [], time.perf_counter() + 1.0
    while time.perf_counter() < end or len(times) < 20:
        t = time.perf_counter()
        jax.block_until_ready(f(*inputs))
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def time_kiln(kiln, args):
    """(median us, interpreted ops) of one `kiln bench` process, or (None, its error)."""
    env = dict(os.environ, KILN_CACHE_MAX_BYTES="0")
    r = subprocess.run([kiln, "bench"] + args, capture_output=True, text=True, env=env, timeout=600)
    m = re.search(r"median ([0-9.]+) us", r.stdout)
    if r.returncode != 0 or not m:
        return None, (r.stderr.strip() or r.stdout.strip())[:200]
    interp = re.search(r"interpreted ops: (\d+)", r.stdout)
    return float(m.group(1)), interp.group(1) if interp else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kiln", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    jax.config.update("jax_platforms", "cpu")
    progs = programs()
    names = [n for n in a.only.split(",") if n] or list(progs)
    unknown = [n for n in names if n not in progs]
    if unknown:
        sys.exit(f"beyond.py: no program {', '.join(unknown)} (have: {', '.join(progs)})")
    print(f"Host: {peers.host_line(a.kiln)}; {peers.kiln_version(a.kiln)}; jax {jax.__version__}; "
          f"{a.rounds} rounds, medians; load {tiers.load_avg()}", flush=True)
    print("| program | Kiln (us) | XLA:CPU (us) | Kiln / XLA:CPU | ops Kiln interpreted |")
    print("|---|---:|---:|---:|---:|")
    failed = 0
    for name in names:
        fn, inputs = progs[name]
        f, args = export(name, fn, inputs)
        kiln_t, xla_t, note = [], [], ""
        for _ in range(a.rounds):
            k, note = time_kiln(a.kiln, args)
            kiln_t.append(k)
            xla_t.append(time_xla(f, inputs))
        if None in kiln_t:
            failed += 1
            print(f"| {name} | failed: {note} | {statistics.median(xla_t):.1f} | - | - |", flush=True)
            continue
        k, x = statistics.median(kiln_t), statistics.median(xla_t)
        print(f"| {name} | {k:.1f} | {x:.1f} | {k / x:.2f} | {note} |", flush=True)
    print(f"load at the end {tiers.load_avg()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
