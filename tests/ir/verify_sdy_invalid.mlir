// Invalid programs for the rules of src/ir/verify_sdy.c (the Shardy ops): each case holds
// exactly one op that breaks a rule, and the substring of the message the verifier must
// report. Cases without an ERROR line must verify.

module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  sdy.mesh @maximal = <[], device_ids=[0]>
  sdy.mesh @"quoted mesh" = <["c"=2]>
  func.func @main(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = sdy.sharding_constraint %x <@maximal, []> : tensor<8x16xf32>
    %1 = sdy.sharding_constraint %0 <mesh<["q"=2]>, [{"q"}, {?}]> : tensor<8x16xf32>
    %2 = sdy.sharding_constraint %1 <@"quoted mesh", [{"c"}, {}]> : tensor<8x16xf32>
    %3 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{"a"}, {"b"}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a", "b"} (%l: tensor<4x8xf32>) {
      %4 = stablehlo.concatenate %l, %l, dim = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
      sdy.return %4 : tensor<4x16xf32>
    } : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %3 : tensor<8x16xf32>
  }
}

// -----

// ERROR: 'sdy.mesh' op must be directly inside a module
func.func @main() {
  sdy.mesh @mesh = <["a"=2]>
  return
}

// -----

// ERROR: requires an attribute 'mesh'
"sdy.mesh"() <{sym_name = "mesh"}> : () -> ()

// -----

// ERROR: requires a string attribute 'sym_name'
"sdy.mesh"() <{mesh = #sdy.mesh<["a"=2]>, sym_name = @mesh}> : () -> ()

// -----

// ERROR: attribute 'mesh' must be #sdy.mesh<...>
"sdy.mesh"() <{mesh = #sdy.sharding<@mesh, []>, sym_name = "mesh"}> : () -> ()

// -----

// ERROR: mesh is not a mesh
sdy.mesh @mesh = <"a"=2>

// -----

// ERROR: expects one operand and one result, got 2 and 1
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "sdy.sharding_constraint"(%x, %x) <{sharding = #sdy.sharding<@mesh, [{}]>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ERROR: result type tensor<4xf64> differs from the operand's type tensor<4xf32>
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf64> {
  %0 = "sdy.sharding_constraint"(%x) <{sharding = #sdy.sharding<@mesh, [{}]>}> : (tensor<4xf32>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// ERROR: requires an attribute 'sharding'
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "sdy.sharding_constraint"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ERROR: sharding is not a sharding <@mesh, [{...}, ...]>
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.sharding_constraint %x <@mesh> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ERROR: sharding names mesh @nope, which no sdy.mesh of the module defines
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.sharding_constraint %x <@nope, [{"a"}]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ERROR: sharding has 1 dimension shardings, expected 2 (the rank of tensor<2x4xf32>)
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = sdy.sharding_constraint %x <@mesh, [{"a"}]> : tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// ERROR: sharding has 0 dimension shardings, expected 1 (the rank of tensor<4xf32>)
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.sharding_constraint %x <@mesh, []> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ERROR: in_shardings holds 1 shardings, expected 2 (one per operand)
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%x, %x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%l: tensor<2xf32>, %m: tensor<2xf32>) {
    sdy.return %l : tensor<2xf32>
  } : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ERROR: out_shardings holds 0 shardings, expected 1 (one per result)
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[] manual_axes={"a"} (%l: tensor<2xf32>) {
    sdy.return %l : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ERROR: in_shardings #1 has 1 dimension shardings, expected 2 (the rank of tensor<4x4xf32>)
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32>, %y: tensor<4x4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%x, %y) in_shardings=[<@mesh, [{"a"}]>, <@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%l: tensor<2xf32>, %m: tensor<2x4xf32>) {
    sdy.return %l : tensor<2xf32>
  } : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ERROR: attribute 'in_shardings' must be #sdy.sharding_per_value<[...]>
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "sdy.manual_computation"(%x) <{in_shardings = #sdy.sharding<@mesh, [{"a"}]>, manual_axes = #sdy<manual_axes{"a"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>}> ({
  ^bb0(%l: tensor<2xf32>):
    sdy.return %l : tensor<2xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ERROR: requires an attribute 'manual_axes'
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "sdy.manual_computation"(%x) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>}> ({
  ^bb0(%l: tensor<2xf32>):
    sdy.return %l : tensor<2xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ERROR: body takes 0 arguments, expected 1 (one per operand)
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32>) {
  sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[] manual_axes={"a"} () {
    sdy.return
  } : (tensor<4xf32>) -> ()
  return
}

// -----

// ERROR: operand #0 has local type tensor<3x8xf32>, which is not a shard of the global type tensor<8x8xf32>
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<8x8xf32>) {
  sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[] manual_axes={"a"} (%l: tensor<3x8xf32>) {
    sdy.return
  } : (tensor<8x8xf32>) -> ()
  return
}

// -----

// ERROR: operand #0 has local type tensor<4xf64>, which is not a shard of the global type tensor<8xf32>
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<8xf32>) {
  sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[] manual_axes={"a"} (%l: tensor<4xf64>) {
    sdy.return
  } : (tensor<8xf32>) -> ()
  return
}

// -----

// ERROR: result #0 has local type tensor<4x4xf32>, which is not a shard of the global type tensor<8xf32>
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4x4xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%l: tensor<2x4xf32>) {
    %1 = stablehlo.concatenate %l, %l, dim = 0 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
    sdy.return %1 : tensor<4x4xf32>
  } : (tensor<4x4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// ERROR: body must end with 'sdy.return'
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%l: tensor<2xf32>) {
    %1 = stablehlo.negate %l : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ERROR: body returns 0 values, expected 1 (one per result)
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%l: tensor<2xf32>) {
    sdy.return
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ERROR: 'sdy.return' op expects parent op 'sdy.manual_computation'
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  sdy.return %x : tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

// ERROR: 'sdy.return' op must be the last operation of its block
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32>) {
  sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[] manual_axes={"a"} (%l: tensor<2xf32>) {
    "sdy.return"() : () -> ()
    %1 = stablehlo.negate %l : tensor<2xf32>
  } : (tensor<4xf32>) -> ()
  return
}
