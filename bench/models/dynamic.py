"""Symbolic shapes measured (issue 13): shape-polymorphic JAX programs compiled once by Kiln
and run at several sizes of their symbolic dimension, against a static compile per size
(Kiln's own, of JAX's export at that size) and against XLA:CPU (which compiles per size).

Started by bench/dynamic.sh (bench/run --dynamic), which sets up the pinned Python
environment and builds Kiln first:
    bench/dynamic.sh [--kiln PATH] [--only NAME,...] [--sizes 1,7,64,1000] [--rounds N] [--iterations N]

Models (MODELS below; float32, random weights): an MLP over a symbolic batch, a transformer
block over a symbolic sequence length, a convnet over a symbolic batch, a scan (an RNN) over
a symbolic length. Each is exported with jax.export once with its symbolic dimension and
once per size with concrete shapes, into bench/models/dynamic/.

  Kiln dynamic   one `kiln bench` process on the polymorphic export with --size for every
                 size in turn: one executable; its median per size, and how many of the
                 signatures it compiled generated code (the others took code an earlier
                 size's compile made).
  Kiln static    a `kiln bench` process per size on the static export.
  XLA:CPU        one process: jax.jit of the model, compiled for each size (one compile
                 per size), its median per size.
Each of the three is measured --rounds times (default 3), the systems interleaved; the
table gives the medians of the rounds (these machines are noisy). Results are not checked here: tests/backends/cpu/test_dynamic_models checks Kiln's against
JAX's at several sizes. The persistent compile cache is off (KILN_CACHE_MAX_BYTES=0).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import peers  # noqa: E402
import tiers  # noqa: E402  (load_avg)

OUT = os.path.join(HERE, "dynamic")
SIZES = [1, 7, 64, 1000]
ENV = {"KILN_CACHE_MAX_BYTES": "0"}


def models():
    import jax
    import jax.numpy as jnp
    from jax import lax

    rng = jax.random.PRNGKey(13)
    keys = iter(jax.random.split(rng, 64))

    def param(*shape):
        return jax.random.normal(next(keys), shape, jnp.float32) * (1.0 / shape[0] ** 0.5)

    w1, b1, w2, b2, w3, b3 = param(784, 512), param(512), param(512, 512), param(512), param(512, 10), param(10)

    def mlp(x):  # x: (batch, 784)
        h = jax.nn.relu(x @ w1 + b1)
        h = jax.nn.relu(h @ w2 + b2)
        return jax.nn.softmax(h @ w3 + b3, axis=-1)

    d = 128
    wq, wk, wv, wo, f1, f2 = param(d, d), param(d, d), param(d, d), param(d, d), param(d, 4 * d), param(4 * d, d)

    def norm(x):
        m = x.mean(-1, keepdims=True)
        return (x - m) * lax.rsqrt(((x - m) ** 2).mean(-1, keepdims=True) + 1e-5)

    def transformer(x):  # x: (seq, 128)
        h = norm(x)
        a = jax.nn.softmax((h @ wq) @ (h @ wk).T / jnp.sqrt(float(d)), axis=-1) @ (h @ wv)
        x = x + a @ wo
        return x + jax.nn.gelu(norm(x) @ f1) @ f2

    k1, k2, dw = param(3, 3, 1, 16), param(3, 3, 16, 32), param(7 * 7 * 32, 10)

    def convnet(x):  # x: (batch, 28, 28, 1)
        dn = ("NHWC", "HWIO", "NHWC")
        y = jax.nn.relu(lax.conv_general_dilated(x, k1, (1, 1), "SAME", dimension_numbers=dn))
        y = lax.reduce_window(y, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4
        y = jax.nn.relu(lax.conv_general_dilated(y, k2, (1, 1), "SAME", dimension_numbers=dn))
        y = lax.reduce_window(y, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4
        return y.reshape(y.shape[0], -1) @ dw

    wh, wx = param(128, 128), param(64, 128)

    def scan(xs):  # xs: (length, 64)
        def step(h, x):
            h = jnp.tanh(h @ wh + x @ wx)
            return h, h

        return lax.scan(step, jnp.zeros(128, jnp.float32), xs)

    return [("mlp", mlp, "b, 784", lambda n: (n, 784)),
            ("transformer", transformer, "s, 128", lambda n: (n, 128)),
            ("convnet", convnet, "b, 28, 28, 1", lambda n: (n, 28, 28, 1)),
            ("scan", scan, "n, 64", lambda n: (n, 64))]


def export(name, fn, spec, shape_of, sizes):
    """model_NAME_poly.mlir and model_NAME_N.mlir per size, written once."""
    import jax
    import jax.numpy as jnp
    from jax import export as jexport
    os.makedirs(OUT, exist_ok=True)
    poly = os.path.join(OUT, f"{name}_poly.mlir")
    if not os.path.exists(poly):
        arg = jax.ShapeDtypeStruct(jexport.symbolic_shape(spec), jnp.float32)
        open(poly, "w").write(jexport.export(jax.jit(fn))(arg).mlir_module())
    static = {}
    for n in sizes:
        path = os.path.join(OUT, f"{name}_{n}.mlir")
        if not os.path.exists(path):
            arg = jax.ShapeDtypeStruct(shape_of(n), jnp.float32)
            open(path, "w").write(jexport.export(jax.jit(fn))(arg).mlir_module())
        static[n] = path
    return poly, static


def run_kiln(cmd):
    env = dict(os.environ, **ENV)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    if p.returncode != 0:
        raise RuntimeError(" ".join(cmd) + ": " + (p.stderr or p.stdout).strip()[-400:])
    return p.stdout


MEDIAN = re.compile(r"run:\s*median\s*([\d.]+)\s*us")
SIGS = re.compile(r"signatures compiled (\d+), their code from (\d+) LLVM compiles")


def kiln_dynamic(kiln, poly, sizes, iterations):
    cmd = [kiln, "bench", poly, "--device", "cpu"] + (["--iterations", str(iterations)] if iterations else [])
    for n in sizes:
        cmd += ["--size", str(n)]
    out = run_kiln(cmd)
    blocks = re.split(r"^size (\d+)$", out, flags=re.M)[1:]
    res = {}
    for n, text in zip(blocks[0::2], blocks[1::2]):
        m, s = MEDIAN.search(text), SIGS.search(text)
        res[int(n)] = {"median_us": float(m.group(1)), "signatures": int(s.group(1)) if s else None,
                       "code_compiles": int(s.group(2)) if s else None}
    return res


def kiln_static(kiln, path, iterations):
    out = run_kiln([kiln, "bench", path, "--device", "cpu"] + (["--iterations", str(iterations)] if iterations else []))
    return float(MEDIAN.search(out).group(1))


def xla_worker(name, sizes, target_s):
    """In a child process: XLA:CPU's median per size (one jax.jit, compiled per size)."""
    import jax
    import numpy as np
    jax.config.update("jax_platforms", "cpu")
    fn = {m[0]: m for m in models()}[name]
    f = jax.jit(fn[1])
    res = {}
    for n in sizes:
        x = jax.device_put(np.random.default_rng(n).uniform(-1, 1, fn[3](n)).astype(np.float32))
        times = peers.time_calls(lambda: jax.block_until_ready(f(x)), 10, target_s, 100000)
        times.sort()
        res[n] = times[len(times) // 2] * 1e6
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kiln", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    ap.add_argument("--iterations", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--target", type=float, default=1.0)
    ap.add_argument("--xla-worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.xla_worker:
        print(json.dumps(xla_worker(args.xla_worker, sizes, args.target)))
        return 0
    only = set(filter(None, args.only.split(",")))
    print(f"host: {peers.host_line(args.kiln)}; load {tiers.load_avg()}")
    rows = []
    for name, fn, spec, shape_of in models():
        if only and name not in only:
            continue
        poly, static = export(name, fn, spec, shape_of, sizes)
        runs = {n: {"dyn": [], "static": [], "xla": []} for n in sizes}
        counts = {}
        for _ in range(args.rounds):
            dyn = kiln_dynamic(args.kiln, poly, sizes, args.iterations)
            p = subprocess.run([sys.executable, __file__, "--kiln", args.kiln, "--sizes", args.sizes, "--target",
                                str(args.target), "--xla-worker", name], capture_output=True, text=True, timeout=1800)
            if p.returncode != 0:
                raise RuntimeError("XLA worker: " + p.stderr.strip()[-400:])
            xla = {int(k): v for k, v in json.loads(p.stdout.strip().splitlines()[-1]).items()}
            for n in sizes:
                runs[n]["dyn"].append(dyn[n]["median_us"])
                runs[n]["static"].append(kiln_static(args.kiln, static[n], args.iterations))
                runs[n]["xla"].append(xla[n])
                counts[n] = (dyn[n]["signatures"], dyn[n]["code_compiles"])
        for n in sizes:
            med = {k: statistics.median(v) for k, v in runs[n].items()}
            rows.append((name, n, med["dyn"], med["static"], med["xla"]) + counts[n])
    print(f"load at the end {tiers.load_avg()}")
    print("| model | size | Kiln dynamic (us) | Kiln static (us) | dynamic / static | XLA:CPU (us) | dynamic / XLA | "
          "Kiln signatures / code compiles so far | XLA compiles so far |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for i, (name, n, d, s, x, sig, cc) in enumerate(rows):
        xc = sizes.index(n) + 1
        print(f"| {name} | {n} | {d:.1f} | {s:.1f} | {d / s:.2f} | {x:.1f} | {d / x:.2f} | {sig} / {cc} | {xc} |")
    worst = max(r[2] / r[3] for r in rows) if rows else 0
    over = [f"{r[0]}@{r[1]}" for r in rows if r[2] > r[4]]
    print(f"worst dynamic / static {worst:.2f}; above XLA:CPU: {', '.join(over) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
