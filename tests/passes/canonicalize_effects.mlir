// Dead ops with effects stay (src/passes/canonicalize.c): counted by test_loop_passes
// only, not run (the custom call's target exists nowhere).

// A custom call stays though nothing reads its result, with or without a declared side
// effect (its target decides; a malformed one is an error to report), and so do the
// constants it reads.
// rewritten: 0
func.func @dead_custom_calls() {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %a = stablehlo.custom_call @kiln_test_effect(%c) {has_side_effect = true} : (tensor<i32>) -> tensor<i32>
  %d = stablehlo.constant dense<2> : tensor<i32>
  %b = stablehlo.custom_call @kiln_test_effect(%d) : (tensor<i32>) -> tensor<i32>
  func.return
}

// -----

// A collective stays: the other devices take part in it.
// rewritten: 0
func.func @dead_all_reduce() {
  %c = stablehlo.constant dense<1.0> : tensor<4xf32>
  %r = "stablehlo.all_reduce"(%c) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
