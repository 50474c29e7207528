#!/usr/bin/env python3
"""Writes the sharded programs of tests/spmd/programs: each program below lowered by JAX for 4
devices (the text JAX sends a plugin, with Shardy's sdy.mesh, sdy.sharding,
sdy.sharding_constraint and sdy.manual_computation), its global inputs and XLA:CPU's global
results on 4 devices.

    tests/python/.venv/bin/python tests/spmd/programs/make.py [NAME...]   (writes NAME.mlir,
                                         NAME_in_I.npy, NAME_out_I.npy beside this file)
"""
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
os.environ["JAX_PLATFORMS"] = "cpu"

from functools import partial  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(3)
devs = jax.devices()
line = Mesh(np.array(devs), ("i",))
grid = Mesh(np.array(devs).reshape(2, 2), ("data", "model"))
# a mesh over the devices in another order: device_ids in the sdy.mesh
grid_t = Mesh(np.array(devs).reshape(2, 2).T, ("x", "y"))
lax = jax.lax


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def ns(mesh, *spec):
    return NamedSharding(mesh, P(*spec))


def collectives(v):
    a = lax.ppermute(v, "i", [(j, (j + 1) % 4) for j in range(4)])
    b = lax.psum_scatter(lax.all_gather(v, "i", tiled=True), "i", tiled=True)
    c = lax.all_to_all(v, "i", 1, 0, tiled=True).reshape(v.shape)
    return a + b + c + lax.axis_index("i") + lax.pmax(v, "i")


def split_sums(v):
    # operands of 1.2 MB per device, made on the device from a small input: across processes
    # each folds one segment and the segments are gathered (the two f32 sums as one all_reduce
    # of two operands on cpu: segments across both); chunk sums keep the result small, every
    # device's copy of it a block of the result
    big = 2 + jnp.sin(jnp.arange(300000, dtype=jnp.float32) / 1e5 * v[0, 0] + v[0, 1])
    ints = (jnp.arange(300003, dtype=jnp.int32) * 7919 + (v[0, 0] * 1000).astype(jnp.int32)) % 65521
    other = 2 + jnp.cos(jnp.arange(250000, dtype=jnp.float32) / 1e5 * v[0, 1])  # summed with big in one (cpu)
    s, m, o = lax.psum(big, "i"), lax.pmax(ints, "i"), lax.psum(other, "i")  # the sums meet past the max
    return jnp.concatenate([s.reshape(1000, 300).sum(1), m[:300000].reshape(1000, 300).sum(1).astype(jnp.float32),
                            m[300000:].astype(jnp.float32), o.reshape(1000, 250).sum(1)])[None]


def indexed(x, k, table, ids, rows, idx, u):
    # a convolution over the batch, an embedding lookup with the ids split by batch, and a
    # scatter-add into columns of batch-split rows: each on the devices' blocks
    y = lax.conv_general_dilated(x, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return jnp.tanh(y), table[ids] * 2, rows.at[:, idx].add(u)


def attention(w, x):
    q, k, v = (a.reshape(*x.shape[:2], 2, 8) for a in jnp.split(x @ w, 3, axis=-1))
    att = jax.nn.softmax(jnp.einsum("bqhd,bkhd->bhqk", q, k), axis=-1)
    return jnp.einsum("bhqk,bkhd->bqhd", att, v).reshape(x.shape)


PROGRAMS = {
    # Megatron-style MLP: columns then rows of the weights split over "model", the batch over "data"
    "mlp_tensor_parallel": (jax.jit(lambda x, w1, w2: jnp.tanh(x @ w1) @ w2,
                                    in_shardings=(ns(grid, "data", None), ns(grid, None, "model"),
                                                  ns(grid, "model", None)),
                                    out_shardings=ns(grid, "data", None)),
                            [f32(8, 16), f32(16, 32), f32(32, 8)]),
    # shard_map with every collective, its operand and result left to the compiler
    "shard_map_collectives": (jax.jit(jax.shard_map(collectives, mesh=line, in_specs=P("i"), out_specs=P("i"))),
                              [f32(16, 8)]),
    # shard_map over one axis of two (axis_names): the body is per-device along "data" only
    "partial_manual": (jax.jit(jax.shard_map(lambda v: lax.psum(jnp.sin(v), "data") * 2, mesh=grid,
                                             in_specs=P("data"), out_specs=P("data"), axis_names={"data"}),
                               in_shardings=ns(grid, "data", "model"), out_shardings=ns(grid, "data", "model")),
                       [f32(8, 4)]),
    # a shard_map inside a loop's body: a manual computation in a region
    "shard_map_in_loop": (jax.jit(lambda v: lax.fori_loop(
        0, 3, lambda k, a: jax.shard_map(lambda b: lax.psum(b, "i") / 4 + k, mesh=line, in_specs=P("i"),
                                         out_specs=P("i"))(a), v)),
                          [f32(8, 2)]),
    # a transposed mesh (device_ids), a sharding constraint, a reduction to a replicated result
    "constraint_transposed": (jax.jit(lambda v: (jnp.sum(lax.with_sharding_constraint(jnp.exp(v), ns(grid_t, "y", "x"))),
                                                 v * 2),
                                      in_shardings=ns(grid_t, "x", None),
                                      out_shardings=(ns(grid_t), ns(grid_t, ("x", "y"), None))),
                              [f32(8, 6)]),
    # a data-parallel training step: the batch split, the weights replicated (per-op rules:
    # local products, the weight gradients partial sums summed by an all_reduce)
    "data_parallel_step": (jax.jit(lambda w, x, y: w - 0.1 * jax.grad(lambda w: jnp.mean((jnp.tanh(x @ w) - y) ** 2))(w),
                                   in_shardings=(ns(line), ns(line, "i", None), ns(line, "i", None)),
                                   out_shardings=ns(line)),
                           [f32(6, 5), f32(16, 6), f32(16, 5)]),
    # a data-parallel attention step: the batch split; the heads made by reshapes, q/k/v by
    # slices and put back by a concatenate in the gradient (per-op rules: all on blocks)
    "attention_step": (jax.jit(lambda w, x: w - 0.1 * jax.grad(lambda w: jnp.mean(attention(w, x) ** 2))(w),
                               in_shardings=(ns(line), ns(line, "i", None, None)), out_shardings=ns(line)),
                       [f32(16, 48) / 4, f32(8, 4, 16)]),
    # all_reduces of blocks over 64 KB (folded once by the devices together, piece by piece,
    # and copied to each; an f32 sum and an i32 max) and of a small one (each device folds)
    "all_reduce_rows": (jax.jit(jax.shard_map(lambda a, b, c: (lax.psum(a, "i"), lax.psum(b, "i"), lax.pmax(c, "i")),
                                              mesh=line, in_specs=P("i"), out_specs=P("i"))),
                        [f32(4, 17000), f32(4, 5), rng.integers(-2**31, 2**31 - 1, (4, 16500), dtype=np.int32)]),
    "all_reduce_split": (jax.jit(jax.shard_map(split_sums, mesh=line, in_specs=P("i"), out_specs=P("i"))), [f32(4, 2)]),
    "indexed_ops": (jax.jit(indexed, in_shardings=(ns(line, "i"), ns(line), ns(line), ns(line, "i"), ns(line, "i"),
                                                   ns(line), ns(line, "i")),
                            out_shardings=(ns(line, "i"), ns(line, "i"), ns(line, "i"))),
                    [f32(8, 6, 6, 3), f32(3, 3, 3, 4), f32(32, 5), rng.integers(0, 32, (8, 3), dtype=np.int32),
                     f32(8, 10), np.array([7, 2, 7], dtype=np.int32), f32(8, 3)]),
    # one collective moves a value between shardings: the partial sums of a product over
    # split columns wanted as row blocks (a reduce_scatter), row blocks wanted as column
    # blocks (an all_to_all)
    "reshard": (jax.jit(lambda x, w, v: (x @ w, jnp.sin(v) * 2),
                        in_shardings=(ns(line, None, "i"), ns(line, "i", None), ns(line, "i", None)),
                        out_shardings=(ns(line, "i", None), ns(line, None, "i"))),
                [f32(8, 16), f32(16, 12), f32(8, 12)]),
    # a shard_map inside a function the entry calls (a nested jit): inlined before
    # partitioning, so the result keeps the shard_map's blocks
    "shard_map_in_call": (jax.jit(lambda v: jax.jit(jax.shard_map(lambda b: jnp.cos(b) * lax.axis_index("i"), mesh=line,
                                                                   in_specs=P("i"), out_specs=P("i")))(v) + 1),
                          [f32(8, 3)]),
    # a data-parallel step of two layers over a batch of sequences: each weight gradient a
    # contraction of the batch's rows (swapped where JAX transposes it), summed over the
    # devices; the cpu device sums both in one all_reduce
    "data_parallel_two": (jax.jit(lambda w1, w2, x, y: tuple(w - 0.1 * g for w, g in zip(
        (w1, w2), jax.grad(lambda ws: jnp.mean((jnp.tanh(x @ ws[0]) @ ws[1] - y) ** 2))((w1, w2)))),
                                  in_shardings=(ns(line), ns(line), ns(line, "i", None, None), ns(line, "i", None, None)),
                                  out_shardings=(ns(line), ns(line))),
                          [f32(6, 8), f32(8, 5), f32(8, 3, 6), f32(8, 3, 5)]),
}
# The same kinds of programs as JAX lowers them in its GSPMD mode (jax_use_shardy_partitioner
# off): mhlo.sharding strings on the arguments and results, custom_call @Sharding for a
# constraint, @SPMDFullToShardShape / @SPMDShardToFullShape around a shard_map's body.
GSPMD = {
    "gspmd_mlp": (jax.jit(lambda x, w1, w2: jax.lax.with_sharding_constraint(jnp.tanh(x @ w1), ns(grid, "data", "model"))
                          @ w2, in_shardings=(ns(grid, "data", None), ns(grid, None, "model"), ns(grid, "model", None)),
                          out_shardings=ns(grid, "data", None)),
                  [f32(8, 16), f32(16, 32), f32(32, 8)]),
    "gspmd_shard_map": (jax.jit(jax.shard_map(lambda v, w: lax.psum(jnp.tanh(v @ w), "model"), mesh=grid,
                                              in_specs=(P("data", "model"), P("model", None)), out_specs=P("data"))),
                        [f32(8, 16), f32(16, 4)]),
}


def main():
    import sys
    for name, (f, args) in list(PROGRAMS.items()) + list(GSPMD.items()):
        if len(sys.argv) > 1 and name not in sys.argv[1:]:  # make.py NAME...: only those
            continue
        jax.config.update("jax_use_shardy_partitioner", name not in GSPMD)
        text = f.lower(*args).as_text()
        with open(os.path.join(HERE, name + ".mlir"), "w") as out:
            out.write(text)
        outs = f(*args)
        outs = outs if isinstance(outs, tuple) else (outs,)
        for i, a in enumerate(args):
            np.save(os.path.join(HERE, f"{name}_in_{i}.npy"), a)
        for i, o in enumerate(outs):
            np.save(os.path.join(HERE, f"{name}_out_{i}.npy"), np.asarray(o))
        print(name, len(text), "bytes,", len(args), "inputs,", len(outs), "results")


if __name__ == "__main__":
    main()
