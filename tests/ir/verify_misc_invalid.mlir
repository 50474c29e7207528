// Invalid programs for the rules of src/ir/verify_misc.c: each case holds exactly one
// op that breaks a rule, and the substring of the message the verifier must report.

// ERROR: entry block takes argument #0 of type tensor<i32>, expected tensor<f32>
"func.func"() <{function_type = (tensor<f32>) -> tensor<i32>, sym_name = "main"}> ({
^bb0(%a: tensor<i32>):
  "func.return"(%a) : (tensor<i32>) -> ()
}) : () -> ()

// -----

// ERROR: returns 0 values, expected 1 (the function results)
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  func.return
}

// -----

// ERROR: returns value #1 of type tensor<i32>, expected tensor<f32> (the function results)
func.func @main(%a: tensor<f32>, %b: tensor<i32>) -> (tensor<f32>, tensor<f32>) {
  func.return %a, %b : tensor<f32>, tensor<i32>
}

// -----

// ERROR: callee @foo not found
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0 = func.call @foo(%a) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: passes operand #0 of type tensor<f64>, expected tensor<f32> (the callee's inputs)
func.func @callee(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}
func.func @main(%a: tensor<f64>) -> tensor<f32> {
  %0 = func.call @callee(%a) : (tensor<f64>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: has 2 results, expected 1 (the callee's results)
func.func @callee(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0:2 = func.call @callee(%a) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  func.return %0#0 : tensor<f32>
}

// -----

// ERROR: body region returns 2 values, expected 3 (the loop-carried types)
func.func @main(%a: tensor<i64>, %b: tensor<i64>, %c: tensor<i64>) -> tensor<i64> {
  %0:3 = "stablehlo.while"(%a, %b, %c) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>, %z: tensor<i64>):
    %p = stablehlo.compare LT, %x, %y : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%x: tensor<i64>, %y: tensor<i64>, %z: tensor<i64>):
    stablehlo.return %x, %y : tensor<i64>, tensor<i64>
  }) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>, tensor<i64>)
  func.return %0#0 : tensor<i64>
}

// -----

// ERROR: body region returns value #0 of type tensor<f32>, expected a type compatible with tensor<i64>
func.func @main(%a: tensor<i64>, %f: tensor<f32>) -> tensor<i64> {
  %0 = "stablehlo.while"(%a) ({
  ^bb0(%x: tensor<i64>):
    %p = stablehlo.compare LT, %x, %x : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%x: tensor<i64>):
    stablehlo.return %f : tensor<f32>
  }) : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

// ERROR: cond region must return a tensor<i1>, got tensor<i64>
func.func @main(%a: tensor<i64>) -> tensor<i64> {
  %0 = "stablehlo.while"(%a) ({
  ^bb0(%x: tensor<i64>):
    stablehlo.return %x : tensor<i64>
  }, {
  ^bb0(%x: tensor<i64>):
    stablehlo.return %x : tensor<i64>
  }) : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

// ERROR: cond region takes argument #0 of type tensor<i32>
func.func @main(%a: tensor<i64>) -> tensor<i64> {
  %0 = "stablehlo.while"(%a) ({
  ^bb0(%x: tensor<i32>):
    %p = stablehlo.compare LT, %x, %x : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%x: tensor<i64>):
    stablehlo.return %x : tensor<i64>
  }) : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

// ERROR: has result #0 of type tensor<2xi64>, expected a type compatible with tensor<3xi64> (the loop-carried types)
func.func @main(%a: tensor<3xi64>, %p: tensor<i1>) -> tensor<2xi64> {
  %0 = "stablehlo.while"(%a) ({
  ^bb0(%x: tensor<3xi64>):
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%x: tensor<3xi64>):
    stablehlo.return %x : tensor<3xi64>
  }) : (tensor<3xi64>) -> tensor<2xi64>
  func.return %0 : tensor<2xi64>
}

// -----

// ERROR: must be the last operation of its block
func.func @main(%a: tensor<i64>, %p: tensor<i1>) -> tensor<i64> {
  %0 = "stablehlo.while"(%a) ({
  ^bb0(%x: tensor<i64>):
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%x: tensor<i64>):
    stablehlo.return %x : tensor<i64>
    %y = stablehlo.add %x, %x : tensor<i64>
  }) : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

// ERROR: pred must be a tensor<i1>, got tensor<i32>
func.func @main(%p: tensor<i32>, %a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<f32>
  }, {
    stablehlo.return %a : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: branch 1 region returns value #0 of type tensor<f64>
func.func @main(%p: tensor<i1>, %a: tensor<f32>, %b: tensor<f64>) -> tensor<f32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<f32>
  }, {
    stablehlo.return %b : tensor<f64>
  }) : (tensor<i1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: branch 0 region returns 2 values, expected 1 (the results of the op)
func.func @main(%p: tensor<i1>, %a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a, %a : tensor<f32>, tensor<f32>
  }, {
    stablehlo.return %a : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: index must be a tensor<i32>, got tensor<i64>
func.func @main(%i: tensor<i64>, %a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<f32>
  }, {
    stablehlo.return %a : tensor<f32>
  }) : (tensor<i64>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: branch 2 region returns 0 values, expected 1
func.func @main(%i: tensor<i32>, %a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<f32>
  }, {
    stablehlo.return %a : tensor<f32>
  }, {
    "stablehlo.return"() : () -> ()
  }) : (tensor<i32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: decomposition @missing.impl not found
func.func @main(%a: tensor<i64>) -> tensor<i64> {
  %0 = stablehlo.composite "my.op" %a {decomposition = @missing.impl} : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

// ERROR: has operand #0 of type tensor<i32>, expected tensor<i64> (the decomposition's inputs)
func.func @impl(%a: tensor<i64>) -> tensor<i64> {
  func.return %a : tensor<i64>
}
func.func @main(%a: tensor<i32>) -> tensor<i64> {
  %0 = stablehlo.composite "my.op" %a {decomposition = @impl} : (tensor<i32>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

// ERROR: must be a namespaced op name
func.func @impl(%a: tensor<i64>) -> tensor<i64> {
  func.return %a : tensor<i64>
}
func.func @main(%a: tensor<i64>) -> tensor<i64> {
  %0 = stablehlo.composite "my_op" %a {decomposition = @impl} : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

// ERROR: api_version 7 is out of range [0, 4]
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.custom_call"(%a) {call_target_name = "foo", api_version = 7 : i32} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: output_operand_aliases[0]: operand_index 3 is out of range [0, 1)
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.custom_call"(%a) {
    call_target_name = "foo",
    api_version = 2 : i32,
    output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 3, operand_tuple_indices = []>]
  } : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: output_operand_aliases[0]: operand part has type tensor<f64> but output part has type tensor<f32>
func.func @main(%a: tensor<f64>) -> tensor<f32> {
  %0 = "stablehlo.custom_call"(%a) {
    call_target_name = "foo",
    output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]
  } : (tensor<f64>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: backend_config must be a dictionary for api_version 4
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.custom_call"(%a) {call_target_name = "foo", api_version = 4 : i32, backend_config = "cfg"} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: has result #1 of type tensor<f64>, expected tensor<f32> (the operand types)
func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0:2 = "stablehlo.optimization_barrier"(%a, %b) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f64>)
  func.return %0#0 : tensor<f32>
}

// -----

// ERROR: operand #1 must be a !stablehlo.token, got tensor<f32>
func.func @main(%t: !stablehlo.token, %a: tensor<f32>) -> !stablehlo.token {
  %0 = "stablehlo.after_all"(%t, %a) : (!stablehlo.token, tensor<f32>) -> !stablehlo.token
  func.return %0 : !stablehlo.token
}

// -----

// ERROR: the result must be a !stablehlo.token, got tensor<f32>
func.func @main() -> tensor<f32> {
  %0 = "stablehlo.create_token"() : () -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: all_gather_dim 2 is out of range [0, 2) for operand #0
func.func @main(%a: tensor<2x2xi64>) -> tensor<2x2xi64> {
  %0 = "stablehlo.all_gather"(%a) {
    all_gather_dim = 2 : i64,
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}

// -----

// ERROR: replica id #1 seen more than once in replica_groups
func.func @main(%a: tensor<2x2xi64>) -> tensor<2x4xi64> {
  %0 = "stablehlo.all_gather"(%a) {
    all_gather_dim = 1 : i64,
    replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>
  } : (tensor<2x2xi64>) -> tensor<2x4xi64>
  func.return %0 : tensor<2x4xi64>
}

// -----

// ERROR: replica_groups must hold every id of [0, 2) once, found 3
func.func @main(%a: tensor<2x2xi64>) -> tensor<2x4xi64> {
  %0 = "stablehlo.all_gather"(%a) {
    all_gather_dim = 1 : i64,
    replica_groups = dense<[[0, 3]]> : tensor<1x2xi64>
  } : (tensor<2x2xi64>) -> tensor<2x4xi64>
  func.return %0 : tensor<2x4xi64>
}

// -----

// ERROR: result #0 has size 5 along all_gather_dim, expected a multiple of the operand's 2
func.func @main(%a: tensor<2x2xi64>) -> tensor<2x5xi64> {
  %0 = "stablehlo.all_gather"(%a) {
    all_gather_dim = 1 : i64,
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<2x2xi64>) -> tensor<2x5xi64>
  func.return %0 : tensor<2x5xi64>
}

// -----

// ERROR: result #0 dimension 0 is 3, expected 2 (only all_gather_dim changes)
func.func @main(%a: tensor<2x2xi64>) -> tensor<3x4xi64> {
  %0 = "stablehlo.all_gather"(%a) {
    all_gather_dim = 1 : i64,
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<2x2xi64>) -> tensor<3x4xi64>
  func.return %0 : tensor<3x4xi64>
}

// -----

// ERROR: replica_groups holds -1, but all groups of this op must have the same size
func.func @main(%a: tensor<2x2xi64>) -> tensor<2x4xi64> {
  %0 = "stablehlo.all_gather"(%a) {
    all_gather_dim = 1 : i64,
    replica_groups = dense<[[0, 1], [2, -1]]> : tensor<2x2xi64>
  } : (tensor<2x2xi64>) -> tensor<2x4xi64>
  func.return %0 : tensor<2x4xi64>
}

// -----

// ERROR: result #0 has type tensor<4xf32>, expected the shape of tensor<4xi64> with element type i64
func.func @main(%a: tensor<4xi64>) -> tensor<4xf32> {
  %0 = "stablehlo.all_reduce"(%a) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    %s = stablehlo.add %x, %y : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<4xi64>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// ERROR: computation region takes 3 arguments, expected 2
func.func @main(%a: tensor<4xi64>) -> tensor<4xi64> {
  %0 = "stablehlo.all_reduce"(%a) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>, %z: tensor<i64>):
    %s = stablehlo.add %x, %y : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<4xi64>) -> tensor<4xi64>
  func.return %0 : tensor<4xi64>
}

// -----

// ERROR: computation type tensor<i32> is not promotable from operand type tensor<4xi64>
func.func @main(%a: tensor<4xi64>) -> tensor<4xi32> {
  %0 = "stablehlo.all_reduce"(%a) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %s = stablehlo.add %x, %y : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<4xi64>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

// ERROR: channel_handle.handle must be >= 1 when use_global_device_ids is set, got 0
func.func @main(%a: tensor<4xi64>) -> tensor<4xi64> {
  %0 = "stablehlo.all_reduce"(%a) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    %s = stablehlo.add %x, %y : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
    channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>,
    use_global_device_ids
  } : (tensor<4xi64>) -> tensor<4xi64>
  func.return %0 : tensor<4xi64>
}

// -----

// ERROR: replica_groups must be a 2-D tensor, got rank 1
func.func @main(%a: tensor<4xi64>) -> tensor<4xi64> {
  %0 = "stablehlo.all_reduce"(%a) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    %s = stablehlo.add %x, %y : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {
    replica_groups = dense<[0, 1]> : tensor<2xi64>
  } : (tensor<4xi64>) -> tensor<4xi64>
  func.return %0 : tensor<4xi64>
}

// -----

// ERROR: operand #0 has size 3 along split_dimension, expected a multiple of split_count 2
func.func @main(%a: tensor<2x3xi64>) -> tensor<4x1xi64> {
  %0 = "stablehlo.all_to_all"(%a) {
    split_dimension = 1 : i64,
    concat_dimension = 0 : i64,
    split_count = 2 : i64,
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<2x3xi64>) -> tensor<4x1xi64>
  func.return %0 : tensor<4x1xi64>
}

// -----

// ERROR: replica_groups must have groups of size 2 (split_count), got 4
func.func @main(%a: tensor<2x4xi64>) -> tensor<4x2xi64> {
  %0 = "stablehlo.all_to_all"(%a) {
    split_dimension = 1 : i64,
    concat_dimension = 0 : i64,
    split_count = 2 : i64,
    replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>
  } : (tensor<2x4xi64>) -> tensor<4x2xi64>
  func.return %0 : tensor<4x2xi64>
}

// -----

// ERROR: result #0 has size 2 along concat_dimension, expected 4
func.func @main(%a: tensor<2x4xi64>) -> tensor<2x2xi64> {
  %0 = "stablehlo.all_to_all"(%a) {
    split_dimension = 1 : i64,
    concat_dimension = 0 : i64,
    split_count = 2 : i64,
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<2x4xi64>) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}

// -----

// ERROR: split_count must be positive, got 0
func.func @main(%a: tensor<2x4xi64>) -> tensor<2x4xi64> {
  %0 = "stablehlo.all_to_all"(%a) {
    split_dimension = 1 : i64,
    concat_dimension = 0 : i64,
    split_count = 0 : i64,
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<2x4xi64>) -> tensor<2x4xi64>
  func.return %0 : tensor<2x4xi64>
}

// -----

// ERROR: operand size 4 along scatter_dimension is not a multiple of the result size 3
func.func @main(%a: tensor<2x4xi64>) -> tensor<2x3xi64> {
  %0 = "stablehlo.reduce_scatter"(%a) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    %s = stablehlo.add %x, %y : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {
    scatter_dimension = 1 : i64,
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<2x4xi64>) -> tensor<2x3xi64>
  func.return %0 : tensor<2x3xi64>
}

// -----

// ERROR: scatter_dimension 2 is out of range [0, 2) for operand #0
func.func @main(%a: tensor<2x4xi64>) -> tensor<2x2xi64> {
  %0 = "stablehlo.reduce_scatter"(%a) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    %s = stablehlo.add %x, %y : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {
    scatter_dimension = 2 : i64,
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<2x4xi64>) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}

// -----

// ERROR: source_target_pairs repeats source 0
func.func @main(%a: tensor<2x2xi64>) -> tensor<2x2xi64> {
  %0 = "stablehlo.collective_permute"(%a) {
    source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>
  } : (tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}

// -----

// ERROR: source_target_pairs must have shape (N, 2), got (1, 3)
func.func @main(%a: tensor<2x2xi64>) -> tensor<2x2xi64> {
  %0 = "stablehlo.collective_permute"(%a) {
    source_target_pairs = dense<[[0, 1, 2]]> : tensor<1x3xi64>
  } : (tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}

// -----

// ERROR: has result #0 of type tensor<2x3xi64>, expected a type compatible with tensor<2x2xi64> (the operand type)
func.func @main(%a: tensor<2x2xi64>) -> tensor<2x3xi64> {
  %0 = "stablehlo.collective_permute"(%a) {
    source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>
  } : (tensor<2x2xi64>) -> tensor<2x3xi64>
  func.return %0 : tensor<2x3xi64>
}

// -----

// ERROR: replica_groups holds -2, ids must be >= 0
func.func @main(%a: tensor<1x2xi64>) -> tensor<1x2xi64> {
  %0 = "stablehlo.collective_broadcast"(%a) {
    replica_groups = dense<[[-2, 1]]> : tensor<1x2xi64>
  } : (tensor<1x2xi64>) -> tensor<1x2xi64>
  func.return %0 : tensor<1x2xi64>
}

// -----

// ERROR: has result #0 of type tensor<1x2xf32>, expected a type compatible with tensor<1x2xi64> (the data operand types)
func.func @main(%a: tensor<1x2xi64>) -> tensor<1x2xf32> {
  %0 = "stablehlo.collective_broadcast"(%a) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<1x2xi64>) -> tensor<1x2xf32>
  func.return %0 : tensor<1x2xf32>
}

// -----

// ERROR: with has_dynamic_root, the last operand must be a tensor<1xi32> of roots, got tensor<1xi64>
func.func @main(%a: tensor<1x2xi64>, %r: tensor<1xi64>) -> tensor<1x2xi64> {
  %0 = "stablehlo.collective_reduce"(%a, %r) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    %s = stablehlo.add %x, %y : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {
    has_dynamic_root,
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<1x2xi64>, tensor<1xi64>) -> tensor<1x2xi64>
  func.return %0 : tensor<1x2xi64>
}

// -----

// ERROR: has result #0 of type tensor<2x2xi64>, expected a type compatible with tensor<2x2xf32>
func.func @main(%a: tensor<2x2xf32>) -> tensor<2x2xi64> {
  %0 = "stablehlo.cross-replica-sum"(%a) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<2x2xf32>) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}

// -----

// ERROR: channel_handle.type must be 2 (DEVICE_TO_HOST) when is_host_transfer is true, got 1
func.func @main(%a: tensor<2x2xi64>, %t: !stablehlo.token) -> !stablehlo.token {
  %0 = "stablehlo.send"(%a, %t) {
    channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
    is_host_transfer = true
  } : (tensor<2x2xi64>, !stablehlo.token) -> !stablehlo.token
  func.return %0 : !stablehlo.token
}

// -----

// ERROR: the last operand must be a !stablehlo.token, got tensor<2x2xi64>
func.func @main(%a: tensor<2x2xi64>, %t: !stablehlo.token) -> !stablehlo.token {
  %0 = "stablehlo.send"(%t, %a) {
    channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>
  } : (!stablehlo.token, tensor<2x2xi64>) -> !stablehlo.token
  func.return %0 : !stablehlo.token
}

// -----

// ERROR: channel_handle.type must be 1 (DEVICE_TO_DEVICE) when is_host_transfer is false, got 3
func.func @main(%t: !stablehlo.token) -> tensor<2x2xi64> {
  %0:2 = "stablehlo.recv"(%t) {
    channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>
  } : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
  func.return %0#0 : tensor<2x2xi64>
}

// -----

// ERROR: result #0 must be a tensor (only the last result is a token), got !stablehlo.token
func.func @main(%t: !stablehlo.token) -> tensor<2x2xi64> {
  %0:2 = "stablehlo.recv"(%t) {
    channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>,
    is_host_transfer = true
  } : (!stablehlo.token) -> (!stablehlo.token, tensor<2x2xi64>)
  func.return %0#1 : tensor<2x2xi64>
}

// -----

// ERROR: source_target_pairs repeats target 1
func.func @main(%t: !stablehlo.token) -> tensor<2x2xi64> {
  %0:2 = "stablehlo.recv"(%t) {
    channel_handle = #stablehlo.channel_handle<handle = 0, type = 1>,
    source_target_pairs = dense<[[0, 1], [2, 1]]> : tensor<2x2xi64>
  } : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
  func.return %0#0 : tensor<2x2xi64>
}

// -----

// ERROR: the last result must be a !stablehlo.token, got tensor<2x2xi64>
func.func @main(%t: !stablehlo.token) -> tensor<2x2xi64> {
  %0 = "stablehlo.infeed"(%t) {infeed_config = ""} : (!stablehlo.token) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}

// -----

// ERROR: the last operand must be a !stablehlo.token, got tensor<2xi64>
func.func @main(%a: tensor<2xi64>, %t: !stablehlo.token) -> !stablehlo.token {
  %0 = "stablehlo.outfeed"(%t, %a) {outfeed_config = ""} : (!stablehlo.token, tensor<2xi64>) -> !stablehlo.token
  func.return %0 : !stablehlo.token
}

// -----

// ERROR: a NORMAL distribution needs floating-point a and b
func.func @main(%a: tensor<i32>, %b: tensor<i32>) -> tensor<3x3xi32> {
  %shape = stablehlo.constant dense<[3, 3]> : tensor<2xi64>
  %0 = "stablehlo.rng"(%a, %b, %shape) {
    rng_distribution = #stablehlo<rng_distribution NORMAL>
  } : (tensor<i32>, tensor<i32>, tensor<2xi64>) -> tensor<3x3xi32>
  func.return %0 : tensor<3x3xi32>
}

// -----

// ERROR: result dimension 1 is 4, but shape says 3
func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<3x4xf32> {
  %shape = stablehlo.constant dense<[3, 3]> : tensor<2xi64>
  %0 = "stablehlo.rng"(%a, %b, %shape) {
    rng_distribution = #stablehlo<rng_distribution UNIFORM>
  } : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// -----

// ERROR: a, b and the result must have the same element type
func.func @main(%a: tensor<f32>, %b: tensor<f64>, %shape: tensor<1xi64>) -> tensor<3xf32> {
  %0 = "stablehlo.rng"(%a, %b, %shape) {
    rng_distribution = #stablehlo<rng_distribution UNIFORM>
  } : (tensor<f32>, tensor<f64>, tensor<1xi64>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// ERROR: output_state shape tensor<3xui64> must match initial_state tensor<2xui64>
func.func @main(%s: tensor<2xui64>) -> tensor<4xui64> {
  %0:2 = "stablehlo.rng_bit_generator"(%s) {
    rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>
  } : (tensor<2xui64>) -> (tensor<3xui64>, tensor<4xui64>)
  func.return %0#1 : tensor<4xui64>
}

// -----

// ERROR: output must be a tensor of integer or floating-point type (not i1, tf32, complex or quantized), got tensor<4xi1>
func.func @main(%s: tensor<2xui64>) -> tensor<4xi1> {
  %0:2 = "stablehlo.rng_bit_generator"(%s) {
    rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>
  } : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xi1>)
  func.return %0#1 : tensor<4xi1>
}

// -----

// ERROR: output must be a tensor of integer or floating-point type (not i1, tf32, complex or quantized), got tensor<4xtf32>
func.func @main(%s: tensor<3xui64>) -> tensor<4xtf32> {
  %0:2 = "stablehlo.rng_bit_generator"(%s) {
    rng_algorithm = #stablehlo<rng_algorithm PHILOX>
  } : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xtf32>)
  func.return %0#1 : tensor<4xtf32>
}

// -----

// ERROR: output must be a tensor of integer or floating-point type (not i1, tf32, complex or quantized), got tensor<2x2xcomplex<f32>>
func.func @main(%s: tensor<2xui64>) -> tensor<2x2xcomplex<f32>> {
  %0:2 = "stablehlo.rng_bit_generator"(%s) {
    rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>
  } : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xcomplex<f32>>)
  func.return %0#1 : tensor<2x2xcomplex<f32>>
}

// -----

// ERROR: result must be a tensor<ui32>, got tensor<i32>
func.func @main() -> tensor<i32> {
  %0 = "stablehlo.replica_id"() : () -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// ERROR: result must be a tensor<ui32>, got tensor<2xui32>
func.func @main() -> tensor<2xui32> {
  %0 = "stablehlo.partition_id"() : () -> tensor<2xui32>
  func.return %0 : tensor<2xui32>
}

// -----

// ERROR: body region must hold exactly one collective or slice op and a return
func.func @main(%a: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %0 = "stablehlo.async_start"(%a) ({
  ^bb0(%x: tensor<8x2xf32>):
    %y = stablehlo.add %x, %x : tensor<8x2xf32>
    stablehlo.return %y : tensor<8x2xf32>
  }) : (tensor<8x2xf32>) -> !stablehlo.future<tensor<8x2xf32>>
  %1 = "stablehlo.async_done"(%0) : (!stablehlo.future<tensor<8x2xf32>>) -> tensor<8x2xf32>
  func.return %1 : tensor<8x2xf32>
}

// -----

// ERROR: result type tensor<8x4xf32> must be the future's type tensor<8x8xf32>
func.func @main(%a: tensor<8x2xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.async_start"(%a) ({
  ^bb0(%x: tensor<8x2xf32>):
    %y = "stablehlo.all_gather"(%x) {
      all_gather_dim = 1 : i64,
      replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>
    } : (tensor<8x2xf32>) -> tensor<8x8xf32>
    stablehlo.return %y : tensor<8x8xf32>
  }) : (tensor<8x2xf32>) -> !stablehlo.future<tensor<8x8xf32>>
  %1 = "stablehlo.async_done"(%0) : (!stablehlo.future<tensor<8x8xf32>>) -> tensor<8x4xf32>
  func.return %1 : tensor<8x4xf32>
}

// -----

// ERROR: operands must have the same type, got tensor<3xi64> and tensor<3xi32>
func.func @main() {
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>
  %b = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  "check.expect_eq"(%a, %b) : (tensor<3xi64>, tensor<3xi32>) -> ()
  func.return
}

// -----

// ERROR: operand type tensor<3xi64> differs from the value's type tensor<3xi32>
func.func @main() {
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>
  "check.expect_eq_const"(%a) <{value = dense<[1, 2, 3]> : tensor<3xi32>}> : (tensor<3xi64>) -> ()
  func.return
}

// -----

// ERROR: operand #0 must be a floating-point or complex tensor
func.func @main() {
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>
  check.expect_almost_eq %a, %a : tensor<3xi64>
  func.return
}

// -----

// ERROR: operands must have the same type, got tensor<2xf32> and tensor<2xf64>
func.func @main() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>
  check.expect_close %a, %b, max_ulp_difference = 3 : tensor<2xf32>, tensor<2xf64>
  func.return
}

// -----

// ERROR: operand type tensor<2xf32> differs from the value's type tensor<2xf64>
func.func @main() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  "check.expect_almost_eq_const"(%a) <{value = dense<[1.0, 2.0]> : tensor<2xf64>}> : (tensor<2xf32>) -> ()
  func.return
}

// -----

// ERROR: has result #0 of type tensor<3xf64>, expected tensor<3xf32> (the operand type)
func.func @main(%a: tensor<3xf32>) -> tensor<3xf64> {
  %0 = "interpreter.probe"(%a) {probe_id = "p0"} : (tensor<3xf32>) -> tensor<3xf64>
  func.return %0 : tensor<3xf64>
}

// -----

// ERROR: programs: function @nowhere not found
func.func @main() {
  %0:2 = "interpreter.run_parallel"() {
    programs = [[@nowhere], [@nowhere]]
  } : () -> (tensor<ui32>, tensor<ui32>)
  func.return
}

// -----

// ERROR: has 1 operands and 2 results, expected 0 and 2 (the programs' inputs and results)
func.func @id() -> tensor<ui32> {
  %0 = stablehlo.replica_id : tensor<ui32>
  func.return %0 : tensor<ui32>
}
func.func @main(%a: tensor<f32>) {
  %0:2 = "interpreter.run_parallel"(%a) {
    programs = [[@id], [@id]]
  } : (tensor<f32>) -> (tensor<ui32>, tensor<ui32>)
  func.return
}

// -----

// ERROR: has result #0 of type tensor<f32>, expected tensor<i64> (the decomposition's results)
func.func @impl(%a: tensor<i64>) -> tensor<i64> {
  func.return %a : tensor<i64>
}
func.func @main(%a: tensor<i64>) -> tensor<f32> {
  %0 = stablehlo.composite "my.op" %a {decomposition = @impl, version = 1 : i32} : (tensor<i64>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: body block must end with 'func.return'
func.func @main(%a: tensor<f32>) {
  %0 = stablehlo.add %a, %a : tensor<f32>
}

// -----

// ERROR: expects parent op 'func.func'
func.func @main(%a: tensor<i64>, %p: tensor<i1>) -> tensor<i64> {
  %0 = "stablehlo.while"(%a) ({
  ^bb0(%x: tensor<i64>):
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%x: tensor<i64>):
    func.return %x : tensor<i64>
  }) : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

// ERROR: cond region returns 2 values, expected 1 (a tensor<i1>)
func.func @main(%a: tensor<i64>, %p: tensor<i1>) -> tensor<i64> {
  %0 = "stablehlo.while"(%a) ({
  ^bb0(%x: tensor<i64>):
    stablehlo.return %p, %p : tensor<i1>, tensor<i1>
  }, {
  ^bb0(%x: tensor<i64>):
    stablehlo.return %x : tensor<i64>
  }) : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

// ERROR: expects 2 regions (true_branch, false_branch), got 1
func.func @main(%p: tensor<i1>, %a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: expects at least one branch region
func.func @main(%i: tensor<i32>) {
  "stablehlo.case"(%i) : (tensor<i32>) -> ()
  func.return
}

// -----

// ERROR: output_operand_aliases[0]: output_tuple_indices out of bounds
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.custom_call"(%a) {
    call_target_name = "foo",
    output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [2], operand_index = 0, operand_tuple_indices = []>]
  } : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: result #0 element type differs from the operand's (tensor<4x2xi32> vs tensor<2x4xi64>)
func.func @main(%a: tensor<2x4xi64>) -> tensor<4x2xi32> {
  %0 = "stablehlo.all_to_all"(%a) {
    split_dimension = 1 : i64,
    concat_dimension = 0 : i64,
    split_count = 2 : i64,
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<2x4xi64>) -> tensor<4x2xi32>
  func.return %0 : tensor<4x2xi32>
}

// -----

// ERROR: computation argument #1 has type tensor<f32>, expected tensor<i64> (the returned accumulator type)
func.func @main(%a: tensor<1x2xi64>) -> tensor<1x2xi64> {
  %0 = "stablehlo.collective_reduce"(%a) ({
  ^bb0(%x: tensor<i64>, %y: tensor<f32>):
    stablehlo.return %x : tensor<i64>
  }) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<1x2xi64>) -> tensor<1x2xi64>
  func.return %0 : tensor<1x2xi64>
}

// -----

// ERROR: layout has 2 entries, expected 1 (one per result but the token)
func.func @main(%t: !stablehlo.token) -> tensor<2x2xi64> {
  %0:2 = "stablehlo.infeed"(%t) {infeed_config = "", layout = [[0, 1], [1, 0]]} : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
  func.return %0#0 : tensor<2x2xi64>
}

// -----

// ERROR: infeed: @feed must return one tensor
func.func @feed() -> (tensor<ui32>, tensor<ui32>) {
  %0 = stablehlo.replica_id : tensor<ui32>
  func.return %0, %0 : tensor<ui32>, tensor<ui32>
}
func.func @id() -> tensor<ui32> {
  %0 = stablehlo.replica_id : tensor<ui32>
  func.return %0 : tensor<ui32>
}
func.func @main() {
  %0:2 = "interpreter.run_parallel"() {
    infeed = [@feed],
    programs = [[@id], [@id]]
  } : () -> (tensor<ui32>, tensor<ui32>)
  func.return
}

// -----

// ERROR: operand must be a tensor
func.func @main(%t: !stablehlo.token) {
  "interpreter.print"(%t) : (!stablehlo.token) -> ()
  func.return
}

// -----

// ERROR: requires a string attribute 'probe_id'
func.func @main(%a: tensor<f32>) {
  "check.expect_serialized_eq"(%a) : (tensor<f32>) -> ()
  func.return
}

// -----

// ERROR: the result must be a !stablehlo.token, got tensor<f32>
func.func @main(%t: !stablehlo.token) -> tensor<f32> {
  %0 = "stablehlo.after_all"(%t) : (!stablehlo.token) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: body region takes argument #0 of type tensor<8x2xf64>, expected tensor<8x2xf32> (the operand types)
func.func @main(%a: tensor<8x2xf32>) -> !stablehlo.future<tensor<8x2xf64>> {
  %0 = "stablehlo.async_start"(%a) ({
  ^bb0(%x: tensor<8x2xf64>):
    %y = "stablehlo.collective_permute"(%x) {
      source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>
    } : (tensor<8x2xf64>) -> tensor<8x2xf64>
    stablehlo.return %y : tensor<8x2xf64>
  }) : (tensor<8x2xf32>) -> !stablehlo.future<tensor<8x2xf64>>
  func.return %0 : !stablehlo.future<tensor<8x2xf64>>
}

// -----

// ERROR: replica_groups must be a 2-D tensor, got rank 1
func.func @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.cross-replica-sum"(%a) {
    replica_groups = dense<[0, 1]> : tensor<2xi64>
  } : (tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

// ERROR: yields value #0 of type tensor<3xf32>, expected tensor<2xf32> (the results of scf.for)
func.func @main(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %for = scf.for %i = %c0 to %c2 step %c1 iter_args(%x = %a) -> tensor<2xf32> {
    scf.yield %b : tensor<3xf32>
  }
  func.return %for : tensor<2xf32>
}

// -----

// ERROR: expects 1 indices, got 2
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = tensor.insert %cst into %a[%c0, %c0] : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: operand #0 must be a tensor without per-axis quantization
func.func @main(%a: tensor<2x4x!quant.uniform<i8:f32:0, {0.1:-30, 0.2:-30}>>) -> tensor<2x8x!quant.uniform<i8:f32:0, {0.1:-30, 0.2:-30}>> {
  %0 = "stablehlo.all_gather"(%a) {
    all_gather_dim = 1 : i64,
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<2x4x!quant.uniform<i8:f32:0, {0.1:-30, 0.2:-30}>>) -> tensor<2x8x!quant.uniform<i8:f32:0, {0.1:-30, 0.2:-30}>>
  func.return %0 : tensor<2x8x!quant.uniform<i8:f32:0, {0.1:-30, 0.2:-30}>>
}

// -----

// ERROR: is not promotable from operand type
func.func @main(%a: tensor<!quant.uniform<i8:f32, 2.0:15>>) -> tensor<!quant.uniform<i32:f64, 2.0:15>> {
  %0 = "stablehlo.all_reduce"(%a) ({
  ^bb0(%x: tensor<!quant.uniform<i32:f64, 2.0:15>>, %y: tensor<!quant.uniform<i32:f64, 2.0:15>>):
    %s = stablehlo.add %x, %y : tensor<!quant.uniform<i32:f64, 2.0:15>>
    stablehlo.return %s : tensor<!quant.uniform<i32:f64, 2.0:15>>
  }) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<!quant.uniform<i8:f32, 2.0:15>>) -> tensor<!quant.uniform<i32:f64, 2.0:15>>
  func.return %0 : tensor<!quant.uniform<i32:f64, 2.0:15>>
}

// -----

// ERROR: operand_layouts and result_layouts must be given together
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.custom_call"(%a) {
    call_target_name = "foo",
    operand_layouts = [dense<[1, 0]> : tensor<2xindex>]
  } : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: result_layouts[0] must be a permutation of the dimensions for type tensor<2x3xf32>
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.custom_call"(%a) {
    call_target_name = "foo",
    operand_layouts = [dense<[1, 0]> : tensor<2xindex>],
    result_layouts = [dense<[0, 1, 2]> : tensor<3xindex>]
  } : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: layout[0] must be an array of integers
func.func @main(%t: !stablehlo.token) -> tensor<2x2xi64> {
  %0:2 = "stablehlo.infeed"(%t) {infeed_config = "", layout = [[[]]]} : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
  func.return %0#0 : tensor<2x2xi64>
}

// -----

// ERROR: requires one region, got 2
func.func @main(%a: tensor<4xf32>) -> !stablehlo.future<tensor<4xf32>> {
  %0 = "stablehlo.async_start"(%a) ({
  ^bb0(%x: tensor<4xf32>):
    %y = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    stablehlo.return %y : tensor<4xf32>
  }, {
  ^bb0(%x: tensor<4xf32>):
    %y = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    stablehlo.return %y : tensor<4xf32>
  }) : (tensor<4xf32>) -> !stablehlo.future<tensor<4xf32>>
  func.return %0 : !stablehlo.future<tensor<4xf32>>
}
