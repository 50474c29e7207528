"""Regenerates the Shardy round-trip inputs of tests/parse/sdy: NAME.mlir is MLIR's pretty
text of a module, NAME.generic.mlir the same module in MLIR's generic form; `kiln print` of
either must give NAME.mlir byte for byte (tests/parse/test_sdy.c).

Run with the JAX of tests/python/.venv:  tests/python/.venv/bin/python tests/parse/sdy/gen.py
The programs avoid what Kiln's printer spells its own way whatever the dialect (constants'
%c/%cst names, numbering of values after a region, generic collectives' properties)."""
import os

os.environ.setdefault("JAX_NUM_CPU_DEVICES", "4")
import jax
import jax.numpy as jnp
import numpy as np
from jax import shard_map
from jax._src.interpreters import mlir as jmlir
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
from jaxlib.mlir import ir

HERE = os.path.dirname(os.path.abspath(__file__))
MESH = Mesh(np.array(jax.devices()).reshape(2, 2), ("data", "model"))


def write(name, text):
    ctx = jmlir.make_ir_context()
    module = ir.Module.parse(text, ctx)
    for suffix, generic in ((".mlir", False), (".generic.mlir", True)):
        out = module.operation.get_asm(print_generic_op_form=generic).rstrip("\n") + "\n"
        with open(os.path.join(HERE, name + suffix), "w") as f:
            f.write(out)


def jit_constraint():
    def f(x):
        y = jax.lax.with_sharding_constraint(jnp.sin(x), NamedSharding(MESH, P("data", P.UNCONSTRAINED)))
        return jax.lax.with_sharding_constraint(jnp.cos(y), NamedSharding(MESH, P(("data", "model"), None)))
    return jax.jit(f, in_shardings=NamedSharding(MESH, P("data", "model"))).lower(jnp.ones((8, 16))).as_text()


def shard_map_matmul():
    body = lambda x, w: jnp.tanh(x @ w)
    g = shard_map(body, mesh=MESH, in_specs=(P("data", None), P(None, "model")), out_specs=P("data", "model"))
    return jax.jit(g).lower(jnp.ones((8, 16)), jnp.ones((16, 8))).as_text()


def shard_map_partial():
    body = lambda x, y: (jnp.sin(x), jnp.cos(y))
    g = shard_map(body, mesh=MESH, in_specs=(P("data"), P(None, "data")), out_specs=(P("data"), P(None, "data")),
                  axis_names={"data"})
    return jax.jit(g).lower(jnp.ones((8, 4)), jnp.ones((4, 8))).as_text()


# Forms JAX does not write for these programs, as MLIR prints them back.
MESHES_AND_SHARDINGS = """
module @shardings attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 2 : i64}]}}
  sdy.mesh @mesh4 = <["x"=4]>
  sdy.mesh @perm = <["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>
  sdy.mesh @empty = <[]>
  sdy.mesh @maximal = <[], device_ids=[0]>
  sdy.mesh @"my mesh" = <["c"=4]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p0, {"b", ?}p1]>},
                         %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["q"=2]>, [{"q"}]>})
      -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], replicated={"a", "b"}>}, tensor<8xf32>) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {}], replicated={"b"}> : tensor<8x16xf32>
    %1 = sdy.sharding_constraint %0 <@mesh4, [{"x":(1)2}, {"x":(2)2}]> {foo = 1 : i64} : tensor<8x16xf32>
    %2 = sdy.sharding_constraint %1 <@maximal, []> : tensor<8x16xf32>
    %3 = sdy.sharding_constraint %2 <@mesh, [{"a", ?}p2, {?}]> : tensor<8x16xf32>
    %4 = sdy.sharding_constraint %3 <@perm, [{"b", "a"}, {}]> : tensor<8x16xf32>
    %5 = sdy.sharding_constraint %4 <@"my mesh", [{}, {"c"}]> : tensor<8x16xf32>
    %6 = sdy.sharding_constraint %arg1 <mesh<["z"=2], device_ids=[1, 0]>, [{"z"}]> : tensor<8xf32>
    %7 = sdy.sharding_constraint %6 <@mesh, [{}], unreduced={"a"}> : tensor<8xf32>
    return %5, %7 : tensor<8x16xf32>, tensor<8xf32>
  }
}
"""

# Manual computations: nested, empty, with attributes, returning nothing. No two regions
# with arguments are siblings and each is the last value of its block, where MLIR's and
# Kiln's value numbering agree.
MANUAL_FORMS = """
module @manual {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8xf32>) -> (tensor<8x16xf32>, tensor<8xf32>) {
    sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
      sdy.return
    } : () -> ()
    %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{"a", ?}]>] manual_axes={"a"} (%arg2: tensor<4x16xf32>, %arg3: tensor<4xf32>) {
      %1 = stablehlo.negate %arg3 : tensor<4xf32>
      %2 = sdy.manual_computation(%arg2) in_shardings=[<@mesh, [{}, {"b"}]>] out_shardings=[<@mesh, [{}, {"b"}]>] manual_axes={"b"} (%arg4: tensor<4x8xf32>) {
        %3 = stablehlo.add %arg4, %arg4 : tensor<4x8xf32>
        sdy.return %3 : tensor<4x8xf32>
      } {xla.note = "inner"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
      sdy.return %2, %1 : tensor<4x16xf32>, tensor<4xf32>
    } : (tensor<8x16xf32>, tensor<8xf32>) -> (tensor<8x16xf32>, tensor<8xf32>)
    return %0#0, %0#1 : tensor<8x16xf32>, tensor<8xf32>
  }
}
"""

MANUAL_NO_RESULTS = """
module @manual_no_results {
  sdy.mesh @mesh = <["b"=2]>
  func.func public @main(%arg0: tensor<8xf32>) {
    sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"b"}]>] out_shardings=[] manual_axes={"b"} (%arg1: tensor<4xf32>) {
      sdy.return
    } : (tensor<8xf32>) -> ()
    return
  }
}
"""

if __name__ == "__main__":
    write("jit_constraint", jit_constraint())
    write("shard_map_matmul", shard_map_matmul())
    write("shard_map_partial", shard_map_partial())
    write("meshes_and_shardings", MESHES_AND_SHARDINGS)
    write("manual_forms", MANUAL_FORMS)
    write("manual_no_results", MANUAL_NO_RESULTS)
