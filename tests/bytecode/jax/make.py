#!/usr/bin/env python3
"""Writes the JAX artifacts of tests/bytecode/jax: each program below, exported with
jax.export (VHLO at the exporter's own version, 1.15.0 for jax 0.10.2: the bytes users keep
as Exported.mlir_module_serialized), its inputs and JAX's results on XLA:CPU.

    bench/.venv/bin/python tests/bytecode/jax/make.py    (writes NAME.mlir.bc, NAME_in_I.npy,
                                                          NAME_out_I.npy beside this file)
"""
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax import export

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(11)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def scan_cumulative(x):
    def step(c, v):
        c = c * 0.5 + v
        return c, c
    return jax.lax.scan(step, jnp.zeros(x.shape[1:], x.dtype), x)


PROGRAMS = {
    # argmax/argmin: a two-operand reduce with a comparator region
    "argmax": (lambda x: (jnp.argmax(jnp.sin(x) @ x.T, axis=1), jnp.argmin(x, axis=0)), [f32(4, 4)]),
    # zero-size constants (splats of empty tensors) and concatenation with them
    "empty": (lambda x: (jnp.concatenate([x, jnp.zeros((0,), jnp.float32)]) + 1, jnp.sum(jnp.ones((0, 3)), axis=0)),
              [f32(5)]),
    # bool constants (bit-packed i1) and select
    "mask": (lambda x: jnp.where(jnp.array([True, False, True, True, False, False, True, False, True]), x, -x),
             [f32(9)]),
    # a scan: while loop, carried tuple, dynamic slices
    "scan": (scan_cumulative, [f32(6, 3)]),
    # sort with a comparator, integer ops, complex numbers
    "sort_complex": (lambda x, k: (jnp.sort(x), jnp.abs(jnp.fft.fft(x.astype(jnp.complex64))) * 0 + (k // 3)),
                     [f32(8), np.arange(8, dtype=np.int32)]),
    # private functions called more than once (a custom_jvp's lowering) and a composite-free erf
    "calls": (lambda x: jax.nn.gelu(x) + jax.nn.gelu(x * 2) + jax.scipy.special.erf(x), [f32(3, 5)]),
}


# An artifact whose op fails at run time: the error names the op's location, with no
# line of the artifact's bytes under it (written from text at StableHLO 1.13.0, the
# version Kiln's PJRT plugin asks JAX for).
UNKNOWN_TARGET = """func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.custom_call @no_such_target(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}"""


# jnp.sort as the PJRT path hands it over: its canonicalising comparator reads constants
# hoisted out of the region (one-element splats, which the cpu device must recognise to
# sort natively rather than interpret the comparator).
HOISTED_SORT = """func.func @main(%x: tensor<8192xf32>) -> tensor<8192xf32> {
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare EQ, %a, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %zero, %a : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %3 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.select %3, %nan, %2 : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %5 = stablehlo.compare EQ, %b, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.select %5, %zero, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %7 = stablehlo.compare NE, %b, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.select %7, %nan, %6 : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %9 : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<8192xf32>) -> tensor<8192xf32>
  return %r : tensor<8192xf32>
}"""


def main():
    from jaxlib.mlir.dialects import stablehlo
    with open(os.path.join(HERE, "unknown_target.mlir.bc"), "wb") as f:
        f.write(stablehlo.serialize_portable_artifact_str(UNKNOWN_TARGET, "1.13.0"))
    with open(os.path.join(HERE, "hoisted_sort.mlir.bc"), "wb") as f:
        f.write(stablehlo.serialize_portable_artifact_str(HOISTED_SORT, "1.13.0"))
    np.save(os.path.join(HERE, "unknown_target_in_0.npy"), f32(3))
    for name, (fn, args) in PROGRAMS.items():
        shapes = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in args]
        exp = export.export(jax.jit(fn))(*shapes)
        with open(os.path.join(HERE, name + ".mlir.bc"), "wb") as f:
            f.write(exp.mlir_module_serialized)
        outs = jax.jit(fn, backend="cpu")(*args)
        outs = outs if isinstance(outs, (tuple, list)) else [outs]
        for i, a in enumerate(args):
            np.save(os.path.join(HERE, f"{name}_in_{i}.npy"), a)
        for i, o in enumerate(jax.tree_util.tree_leaves(outs)):
            np.save(os.path.join(HERE, f"{name}_out_{i}.npy"), np.asarray(o))
        print(name, len(exp.mlir_module_serialized), "bytes,", len(jax.tree_util.tree_leaves(outs)), "results")


if __name__ == "__main__":
    main()
