#!/usr/bin/env python3
"""Writes the sharded artifacts of tests/bytecode/sdy: StableHLO + Shardy (sdy) programs
serialized the way a PJRT plugin receives them from JAX 0.10.2 (VHLO 1.13.0 with the sdy
dialect kept: `serialize_portable_artifact(text, "1.13.0", use_mixed_serialization=True)`,
as /work/shared/research/spmd-samples/lower.py and PjRtCApiClient::SerializeProgram do).
For each NAME it writes
  NAME.mlir.bc  the artifact;
  NAME.mlir     its text twin: MLIR's own printing of the artifact read back
                (stablehlo.deserialize_portable_artifact), i.e. exactly what the bytes hold
                (a lowering's .as_text() differs in what VHLO does not keep, e.g. the type
                of a collective's channel handle);
  NAME.sdy      every sdy attribute of it as MLIR prints it, one line per attribute:
                `OP PATH = TEXT`, ops in pre-order, lines of an op sorted by PATH
                (PATH is `name`, or `arg_attrs[I].name` inside a function's dictionaries).
Then malformed/: copies of two of them with one sdy attribute rewritten (a bad code, a
truncated or overlong one, a huge count, a reference to the wrong kind, a cycle, a negative
factor, references nested until their text outgrows the artifact), and malformed/expect.txt:
`FILE: TEXT` where TEXT must be in the reader's error, which must name a byte offset.

    XLA_FLAGS=--xla_force_host_platform_device_count=4 \
      tests/python/.venv/bin/python tests/bytecode/sdy/make.py
"""
import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=4")
import jax
import jax.numpy as jnp
import numpy as np
from jax import shard_map
from jax._src.lib import _jax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy, stablehlo

HERE = os.path.dirname(os.path.abspath(__file__))
DEVS = jax.devices()
assert len(DEVS) >= 4, "needs 4 devices: XLA_FLAGS=--xla_force_host_platform_device_count=4"


def mlp_constraint():
    """jit + NamedSharding (auto axes): closed and open dims, two axes on one dim."""
    mesh = Mesh(np.array(DEVS[:4]).reshape(2, 2), ("data", "model"))
    def f(w, x):
        h = jnp.tanh(x @ w)
        h = jax.lax.with_sharding_constraint(h, NamedSharding(mesh, P("data", P.UNCONSTRAINED)))
        return jax.lax.with_sharding_constraint(h * 2, NamedSharding(mesh, P(("data", "model"), None)))
    g = jax.jit(f, in_shardings=(NamedSharding(mesh, P(None, "model")), NamedSharding(mesh, P("data", None))))
    return g.lower(jnp.ones((16, 8)), jnp.ones((8, 16))).as_text()


def device_ids():
    """A sharding with logical device ids (a permuted device order): a mesh with device_ids."""
    mesh = Mesh(np.array(DEVS[:4]).reshape(2, 2), ("a", "b"))
    permuted = NamedSharding(mesh, P("a", "b"), _logical_device_ids=(0, 2, 1, 3))
    g = jax.jit(lambda x: x + 1, in_shardings=permuted, out_shardings=NamedSharding(mesh, P("b", None)))
    return g.lower(jnp.ones((4, 4))).as_text()


def explicit_unreduced():
    """Explicit axes: an unreduced dot (TensorSharding v2) resharded to replicated."""
    mesh = jax.make_mesh((2, 2), ("x", "y"), axis_types=(AxisType.Explicit, AxisType.Explicit))
    def f(a, b):
        c = jnp.dot(a, b, out_sharding=P(None, None, unreduced={"x"}))
        return jax.sharding.reshard(c, P(None, None))
    a = jax.device_put(jnp.ones((4, 8)), NamedSharding(mesh, P(None, "x")))
    b = jax.device_put(jnp.ones((8, 4)), NamedSharding(mesh, P("x", None)))
    with jax.set_mesh(mesh):
        return jax.jit(f).lower(a, b).as_text()


def mixed_axes():
    """An explicit and an auto axis: open dims with replicated={"x"}."""
    mesh = jax.make_mesh((2, 2), ("x", "y"), axis_types=(AxisType.Explicit, AxisType.Auto))
    x = jax.device_put(jnp.ones((4, 8)), NamedSharding(mesh, P("y", None)))
    with jax.set_mesh(mesh):
        g = jax.jit(lambda a: jax.lax.with_sharding_constraint(a * 2, P(None, "y")))
        return g.lower(x).as_text()


def shard_map_partial():
    """shard_map manual on one of two axes (axis_names=), with a psum over it."""
    mesh = Mesh(np.array(DEVS[:4]).reshape(2, 2), ("data", "model"))
    def body(x, w):
        return jax.lax.psum(x @ w, "data")
    g = jax.jit(shard_map(body, mesh=mesh, in_specs=(P("data", None), P()), out_specs=P(), axis_names={"data"}),
                in_shardings=(NamedSharding(mesh, P("data", "model")), NamedSharding(mesh, P(None, "model"))))
    return g.lower(jnp.ones((4, 8)), jnp.ones((8, 4))).as_text()


def linalg_rule():
    """A LAPACK custom call: JAX puts an sdy.sharding_rule on it, sharded program or not."""
    return jax.jit(lambda a, b: jax.scipy.linalg.solve_triangular(a, b, lower=True)).lower(
        jnp.eye(4), jnp.ones((4, 5))).as_text()


# What JAX does not write today but sdy does: priorities, sub-axes, inline and maximal
# meshes, empty shardings, sharding rules with every part (serialized from this text the same way).
HANDWRITTEN = """module @handwritten attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=1]>
  sdy.mesh @maximal = <[], device_ids=[3]>
  sdy.mesh @empty = <[]>
  func.func public @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}p1, {"x":(2)2, ?}p0]>},
                         %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["z"=2, "w"=2], device_ids=[3, 2, 1, 0]>, [{"z", ?}], replicated={"w"}>},
                         %w: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>)
      -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal, []>}, tensor<f32> {sdy.sharding = #sdy.sharding<@empty, []>}, tensor<8xf32>,
          tensor<f32>) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{?}p2, {}], replicated={"y"}> : tensor<8x8xf32>
    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x"}, {?}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%a: tensor<2x8xf32>) {
      sdy.return %a : tensor<2x8xf32>
    } : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = sdy.manual_computation() in_shardings=[] out_shardings=[<@mesh, []>] manual_axes={} () {
      %c = stablehlo.constant dense<1.0> : tensor<f32>
      sdy.return %c : tensor<f32>
    } : () -> tensor<f32>
    %3 = stablehlo.custom_call @rule(%arg0, %arg1) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [kl])->([j]) {i=8, j=8, k=4, l=2} reduction={i} need_replication={k} permutation={l} blocked_propagation={j}, custom>} : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %4 = stablehlo.custom_call @wide(%w) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x, y, z, z_1])->([]) {i=1, j=1, k=1, l=1, m=1, n=1, o=1, p=1, q=1, r=1, s=1, t=1, u=1, v=1, w=1, x=1, y=1, z=1, z_1=1}>} : (tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>) -> tensor<f32>
    return %1, %2, %3, %4 : tensor<8x8xf32>, tensor<f32>, tensor<8xf32>, tensor<f32>
  }
}
"""

PROGRAMS = {
    "mlp_constraint": mlp_constraint,
    "device_ids": device_ids,
    "explicit_unreduced": explicit_unreduced,
    "mixed_axes": mixed_axes,
    "shard_map_partial": shard_map_partial,
    "linalg_rule": linalg_rule,
    "handwritten": lambda: HANDWRITTEN,
}


def sdy_lines(op):
    """The sdy attributes of op and the ops inside it, as the .sdy file lists them."""
    lines = []
    mine = []

    def emit(path, attr):
        text = str(attr)
        if text.startswith("#sdy"):
            mine.append(f"{op.name} {path} = {text}")
        elif isinstance(attr, ir.ArrayAttr):
            for i, item in enumerate(attr):
                emit(f"{path}[{i}]", item)
        elif isinstance(attr, ir.DictAttr):
            for i in range(len(attr)):
                na = attr[i]
                emit(f"{path}.{na.name}", na.attr)

    for i in range(len(op.attributes)):
        na = op.attributes[i]
        emit(na.name, na.attr)
    lines += sorted(mine)
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                lines += sdy_lines(inner.operation)
    return lines


# ------------------------------------------------------------------ malformed copies

def varint(v):
    """MLIR's PrefixVarInt."""
    for n in range(1, 9):
        if v < 1 << (7 * n):
            return ((v << n) | (1 << (n - 1))).to_bytes(n, "little")
    return b"\0" + v.to_bytes(8, "little")


def svarint(v):
    return varint(v << 1 if v >= 0 else (-v - 1) << 1 | 1)


class Reader:
    def __init__(self, data, pos=0):
        self.data, self.pos = data, pos

    def byte(self):
        self.pos += 1
        return self.data[self.pos - 1]

    def varint(self):
        first = self.byte()
        if first & 1:
            return first >> 1
        n = 8 if first == 0 else (first & -first).bit_length() - 1
        rest = int.from_bytes(self.data[self.pos:self.pos + n], "little")
        self.pos += n
        return rest if first == 0 else ((rest << 8) | first) >> (n + 1)


class Artifact:
    """An artifact's sections, and its attribute entries as (dialect, custom, bytes)."""

    def __init__(self, data):
        r = Reader(data, 4)
        r.varint()
        r.pos = data.index(0, r.pos) + 1
        self.header, self.sections = data[:r.pos], []
        while r.pos < len(data):
            sid, size = r.byte(), r.varint()
            assert not sid & 0x80, "aligned sections are not rewritten"
            self.sections.append([sid, data[r.pos:r.pos + size]])
            r.pos += size
        sec = dict(self.sections)
        strings = Reader(sec[0])
        lens = [strings.varint() for _ in range(strings.varint())][::-1]
        dialects = Reader(sec[1])
        self.dialects, table = [], sec[0][strings.pos:]
        for _ in range(dialects.varint()):
            index = dialects.varint() >> 1
            start = sum(lens[:index])
            self.dialects.append(table[start:start + lens[index] - 1].decode())
        offsets = Reader(sec[3])
        self.num_attrs, self.num_types = offsets.varint(), offsets.varint()
        self.groups, self.entries, at = [], [], 0
        while len(self.entries) < self.num_attrs + self.num_types:
            dialect, count = offsets.varint(), offsets.varint()
            self.groups.append((dialect, count))
            for _ in range(count):
                v = offsets.varint()
                self.entries.append([dialect, v & 1, sec[2][at:at + (v >> 1)]])
                at += v >> 1

    def sdy(self, code):
        """Indices of the sdy attributes of a code."""
        return [i for i, (d, custom, b) in enumerate(self.entries[:self.num_attrs])
                if self.dialects[d] == "sdy" and custom and Reader(b).varint() == code]

    def bytes(self):
        offsets = varint(self.num_attrs) + varint(self.num_types)
        i = 0
        for dialect, count in self.groups:
            offsets += varint(dialect) + varint(count)
            for _, custom, b in self.entries[i:i + count]:
                offsets += varint(len(b) << 1 | custom)
            i += count
        data = {2: b"".join(b for _, _, b in self.entries), 3: offsets}
        out = self.header
        for sid, body in self.sections:
            body = data.get(sid, body)
            out += bytes([sid]) + varint(len(body)) + body
        return out


def load(name):
    with open(os.path.join(HERE, name + ".mlir.bc"), "rb") as f:
        return Artifact(f.read())


def refs(*indices):
    return varint(len(indices)) + b"".join(varint(i) for i in indices)


def malformed():
    folder = os.path.join(HERE, "malformed")
    os.makedirs(folder, exist_ok=True)
    expect = []

    def write(base, name, edit, message):
        a = load(base)
        edit(a)
        with open(os.path.join(folder, name + ".mlir.bc"), "wb") as f:
            f.write(a.bytes())
        expect.append(f"{name}.mlir.bc: {message}")

    def put(a, index, content):
        a.entries[index][2] = content

    hw = load("handwritten")
    mesh, dim, axis, per_value = hw.sdy(2)[0], hw.sdy(5)[0], hw.sdy(4)[0], hw.sdy(7)[0]
    sharding, dim_mapping = hw.sdy(6)[0], hw.sdy(8)[0]
    string = next(i for i, (d, c, b) in enumerate(hw.entries) if hw.dialects[d] == "builtin" and b[:1] == varint(2))
    write("handwritten", "bad_code", lambda a: put(a, mesh, varint(49) + a.entries[mesh][2][1:]),
          "sdy attribute code 49 is not read")
    write("handwritten", "truncated", lambda a: put(a, mesh, a.entries[mesh][2][:-1]),
          "expected device ids, found the end of its section")
    write("handwritten", "trailing", lambda a: put(a, axis, a.entries[axis][2] + b"\1"),
          f"expected the end of attribute {axis}, found 1 more bytes")
    write("handwritten", "huge_count", lambda a: put(a, mesh, varint(2) + varint(2**60)),
          "expected the number of mesh axes, found 1152921504606846976 (more than the 0 bytes left)")
    write("handwritten", "wrong_kind", lambda a: put(a, dim, varint(5) + refs(string) + b"\1" + varint(0)),
          f"expected an axis reference, found attribute {string} of another kind")
    write("handwritten", "cycle", lambda a: put(a, per_value, varint(7) + refs(per_value)),
          "expected a attribute that does not contain itself")
    write("handwritten", "negative_factor", lambda a: put(a, dim_mapping, varint(8) + varint(1) + svarint(-1)),
          "expected a factor index of 0 or more in factor indices, found -1")

    def blow_up(a):  # 200 references at each of three levels: 8 million references in all
        put(a, dim, varint(5) + refs(*[axis] * 200) + b"\1" + varint(0))
        put(a, sharding, varint(6) + varint(1) + refs(*[dim] * 200) + refs())
        put(a, per_value, varint(7) + refs(*[sharding] * 200))
    write("handwritten", "text_budget", blow_up, "expected sdy attributes of at most")
    eu = load("explicit_unreduced")
    axis_0 = eu.sdy(1)[0]
    write("explicit_unreduced", "wrong_property", lambda a: put(a, eu.sdy(2)[0], a.entries[axis_0][2]),
          "expected a mesh as 'mesh' of 'sdy.mesh', found attribute")
    with open(os.path.join(folder, "expect.txt"), "w") as f:
        f.write("".join(line + "\n" for line in expect))


def main():
    for name, make in PROGRAMS.items():
        text = make()
        bc = _jax.mlir.serialize_portable_artifact(text, "1.13.0", use_mixed_serialization=True)
        ctx = ir.Context()
        sdy.register_dialect(ctx)
        stablehlo.register_dialect(ctx)
        module = stablehlo.deserialize_portable_artifact(ctx, bc)
        with open(os.path.join(HERE, name + ".mlir.bc"), "wb") as f:
            f.write(bc)
        with open(os.path.join(HERE, name + ".mlir"), "w") as f:
            f.write(module.operation.get_asm() + "\n")
        with open(os.path.join(HERE, name + ".sdy"), "w") as f:
            f.write("".join(line + "\n" for line in sdy_lines(module.operation)))
        print(f"{name}: {len(bc)} bytes")
    malformed()


if __name__ == "__main__":
    main()
