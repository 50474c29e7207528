#!/usr/bin/env python3
"""stablehlo.fft on Kiln's cpu device against XLA:CPU (jax.jit of jnp.fft), in one run.

    bench/.venv/bin/python bench/fft_bench.py [--kiln build/kiln] [--rounds 3]

For each case it writes a one-op program to a temporary folder, times it with `kiln bench`
(median of its timed runs) and times the same transform through jax.jit on XLA:CPU
(median of as many runs), alternating the two `rounds` times so both see the same load.
Prints one table: the medians and Kiln / XLA (below 1: Kiln is faster). Both use every
core they are given (KILN_CPU_THREADS, XLA's own pool)."""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

os.environ.setdefault("JAX_PLATFORMS", "cpu")
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

jax.config.update("jax_enable_x64", True)

# name, fft_type, operand shape, element type, fft_length
CASES = [
    ("fft c64 1024x1024 rows", "FFT", (1024, 1024), "complex<f32>", [1024]),
    ("ifft c64 1024x1024 rows", "IFFT", (1024, 1024), "complex<f32>", [1024]),
    ("rfft f32 4096x1024", "RFFT", (4096, 1024), "f32", [1024]),
    ("irfft c64 4096x513", "IRFFT", (4096, 513), "complex<f32>", [1024]),
    ("fft2 c64 64x256x256", "FFT", (64, 256, 256), "complex<f32>", [256, 256]),
    ("fft c128 256x4096", "FFT", (256, 4096), "complex<f64>", [4096]),
    ("fft c64 2048x1000 (2^3 5^3)", "FFT", (2048, 1000), "complex<f32>", [1000]),
    ("fft c64 1024x1009 (prime)", "FFT", (1024, 1009), "complex<f32>", [1009]),
    ("fft c64 1x65536", "FFT", (1, 65536), "complex<f32>", [65536]),
]

NP = {"complex<f32>": np.complex64, "complex<f64>": np.complex128, "f32": np.float32, "f64": np.float64}


def result_shape(kind, shape, length):
    out = list(shape)
    if kind == "RFFT":
        out[-1] = length[-1] // 2 + 1
    if kind == "IRFFT":
        out[-1] = length[-1]
    return out


def result_elem(kind, elem):
    if kind == "RFFT":
        return "complex<f32>" if elem == "f32" else "complex<f64>"
    if kind == "IRFFT":
        return "f32" if elem == "complex<f32>" else "f64"
    return elem


def program(kind, shape, elem, length):
    t_in = "tensor<%sx%s>" % ("x".join(map(str, shape)), elem)
    t_out = "tensor<%sx%s>" % ("x".join(map(str, result_shape(kind, shape, length))), result_elem(kind, elem))
    return ("func.func @main(%%x: %s) -> %s {\n"
            "  %%r = stablehlo.fft %%x, type = %s, length = [%s] : (%s) -> %s\n"
            "  func.return %%r : %s\n}\n") % (t_in, t_out, kind, ", ".join(map(str, length)), t_in, t_out, t_out)


def jax_fn(kind, length):
    axes = tuple(range(-len(length), 0))
    if kind == "FFT":
        return jax.jit(lambda x: jnp.fft.fftn(x, axes=axes))
    if kind == "IFFT":
        return jax.jit(lambda x: jnp.fft.ifftn(x, axes=axes))
    if kind == "RFFT":
        return jax.jit(lambda x: jnp.fft.rfftn(x, axes=axes))
    return jax.jit(lambda x: jnp.fft.irfftn(x, s=length, axes=axes))


def time_kiln(kiln, path):
    out = subprocess.run([kiln, "bench", path, "--device", "cpu"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"median ([0-9.]+) (ms|us|µs|s)", out)
    if not m:
        sys.exit("no median in kiln bench's output:\n" + out)
    scale = {"s": 1e3, "ms": 1.0, "us": 1e-3, "µs": 1e-3}[m.group(2)]
    interp = re.search(r"interpret[a-z]*[: ]+([^\n]*)", out)
    return float(m.group(1)) * scale, out


def time_jax(fn, x, runs):
    fn(x).block_until_ready()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn(x).block_until_ready()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kiln", default=os.path.join(os.path.dirname(__file__), "..", "build", "kiln"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, kind, shape, elem, length in CASES:
            if args.only and args.only not in name:
                continue
            path = os.path.join(tmp, "fft.mlir")
            with open(path, "w") as f:
                f.write(program(kind, shape, elem, length))
            x = rng.uniform(-1, 1, shape)
            if elem.startswith("complex"):
                x = x + 1j * rng.uniform(-1, 1, shape)
            x = jnp.asarray(x.astype(NP[elem]))
            fn = jax_fn(kind, length)
            k_times, x_times = [], []
            for _ in range(args.rounds):
                k, _ = time_kiln(args.kiln, path)
                k_times.append(k)
                x_times.append(time_jax(fn, x, 30))
            k, xl = min(k_times), min(x_times)
            rows.append((name, k, xl))
            print("%-30s kiln %9.3f ms   XLA:CPU %9.3f ms   kiln/XLA %5.2f" % (name, k, xl, k / xl), flush=True)
    print()
    print("| case | Kiln cpu (ms) | XLA:CPU (ms) | Kiln / XLA |")
    print("| --- | --- | --- | --- |")
    for name, k, xl in rows:
        print("| %s | %.3f | %.3f | %.2f |" % (name, k, xl, k / xl))


if __name__ == "__main__":
    main()
