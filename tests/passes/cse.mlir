// Common subexpressions of the cpu backend's planned function (src/passes/cse.c:
// test_loop_passes checks how many ops each function merges); kiln check runs them on cpu
// and on the interpreter, which merges nothing.

// Twins go: an add of the same operands, a constant of the same value, a broadcast of the
// same dims (then the multiply that reads the merged ones is a twin too). Not twins: an add
// of swapped operands, a broadcast along other dims, a transpose by another permutation,
// a convert to another type.
// merged: 4
func.func @twins() {
  %x0 = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %y0 = stablehlo.constant dense<[[0.5, -1.0], [2.0, 0.25]]> : tensor<2x2xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<2x2xf32>
  %y = stablehlo.optimization_barrier %y0 : tensor<2x2xf32>
  %a = stablehlo.add %x, %y : tensor<2x2xf32>
  %b = stablehlo.add %x, %y : tensor<2x2xf32>
  %s = stablehlo.add %y, %x : tensor<2x2xf32>
  %c1 = stablehlo.constant dense<3.0> : tensor<2xf32>
  %c2 = stablehlo.constant dense<3.0> : tensor<2xf32>
  %r1 = stablehlo.broadcast_in_dim %c1, dims = [0] : (tensor<2xf32>) -> tensor<2x2xf32>
  %r2 = stablehlo.broadcast_in_dim %c2, dims = [0] : (tensor<2xf32>) -> tensor<2x2xf32>
  %r3 = stablehlo.broadcast_in_dim %c2, dims = [1] : (tensor<2xf32>) -> tensor<2x2xf32>
  %m1 = stablehlo.multiply %a, %r1 : tensor<2x2xf32>
  %m2 = stablehlo.multiply %b, %r2 : tensor<2x2xf32>
  %t1 = stablehlo.transpose %m1, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %t2 = stablehlo.transpose %m2, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %v1 = stablehlo.convert %s : (tensor<2x2xf32>) -> tensor<2x2xf64>
  %v2 = stablehlo.convert %s : (tensor<2x2xf32>) -> tensor<2x2xf16>
  %u = stablehlo.add %t1, %t2 : tensor<2x2xf32>
  %w = stablehlo.add %u, %r3 : tensor<2x2xf32>
  check.expect_almost_eq_const %w, dense<[[12.0, 21.0], [21.0, 28.5]]> : tensor<2x2xf32>
  check.expect_almost_eq_const %v1, dense<[[1.5, 1.0], [5.0, 4.25]]> : tensor<2x2xf64>
  check.expect_almost_eq_const %v2, dense<[[1.5, 1.0], [5.0, 4.25]]> : tensor<2x2xf16>
  func.return
}

// -----

// Reduces with regions alike op for op (their own arguments in the same places) merge; one
// whose region takes the maximum, one whose region reads its arguments the other way round
// (a - b, not b - a), and one from another init do not. (A fold by subtraction depends on
// the order of folding, which the spec leaves to the implementation: not checked.)
// merged: 1
func.func @reduce_twins() {
  %x0 = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<2x3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %s1 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    reducer(%a: tensor<f32>, %b: tensor<f32>) {
      %t = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }
  %s2 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    reducer(%p: tensor<f32>, %q: tensor<f32>) {
      %t = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }
  %s3 = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %s4 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    reducer(%a: tensor<f32>, %b: tensor<f32>) {
      %t = stablehlo.subtract %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }
  %s5 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    reducer(%a: tensor<f32>, %b: tensor<f32>) {
      %t = stablehlo.subtract %b, %a : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }
  %s6 = stablehlo.reduce(%x init: %one) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %d = stablehlo.subtract %s1, %s2 : tensor<2xf32>
  check.expect_almost_eq_const %d, dense<[0.0, 0.0]> : tensor<2xf32>
  check.expect_almost_eq_const %s1, dense<[6.0, 15.0]> : tensor<2xf32>
  check.expect_almost_eq_const %s3, dense<[3.0, 6.0]> : tensor<2xf32>
  check.expect_almost_eq_const %s6, dense<[7.0, 16.0]> : tensor<2xf32>
  func.return
}

// -----

// Two SVDs of one matrix through a private function called twice (as jnp.linalg's
// matrix_rank and cond of one matrix are): once inlined, the LAPACK calls are twins and
// one goes. A call marked has_side_effect stays.
// merged: 1
func.func @singular_values_twice() {
  %a0 = stablehlo.constant dense<[[[4.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 2.0]], [[1.0, 0.0, 0.0], [0.0, 5.0, 0.0], [0.0, 0.0, 0.5]]]> : tensor<2x3x3xf32>
  %a = stablehlo.optimization_barrier %a0 : tensor<2x3x3xf32>
  %s1 = func.call @svd(%a) : (tensor<2x3x3xf32>) -> tensor<2x3xf32>
  %s2 = func.call @svd(%a) : (tensor<2x3x3xf32>) -> tensor<2x3xf32>
  %e:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%a) {has_side_effect = true, mhlo.backend_config = {mode = 78 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2xi32>)
  %f:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%a) {has_side_effect = true, mhlo.backend_config = {mode = 78 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2xi32>)
  check.expect_almost_eq_const %s1, dense<[[4.0, 3.0, 2.0], [5.0, 1.0, 0.5]]> : tensor<2x3xf32>
  check.expect_almost_eq_const %s2, dense<[[4.0, 3.0, 2.0], [5.0, 1.0, 0.5]]> : tensor<2x3xf32>
  check.expect_almost_eq_const %e#1, dense<[[4.0, 3.0, 2.0], [5.0, 1.0, 0.5]]> : tensor<2x3xf32>
  check.expect_almost_eq_const %f#1, dense<[[4.0, 3.0, 2.0], [5.0, 1.0, 0.5]]> : tensor<2x3xf32>
  func.return
}
func.func private @svd(%a: tensor<2x3x3xf32>) -> tensor<2x3xf32> {
  %r:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%a) {mhlo.backend_config = {mode = 78 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2xi32>)
  func.return %r#1 : tensor<2x3xf32>
}

// -----

// Each block is a scope: in a loop's body two twins merge (and so does the add that reads
// them), while an op of the body equal to one outside the loop is left; the loops
// themselves, barriers and rng ops never merge.
// merged: 2
func.func @scopes() {
  %x0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<2xf32>
  %xb = stablehlo.optimization_barrier %x0 : tensor<2xf32>
  %o = stablehlo.multiply %x, %x : tensor<2xf32>
  %i0c = stablehlo.constant dense<0> : tensor<i32>
  %i0 = stablehlo.optimization_barrier %i0c : tensor<i32>
  %n = stablehlo.constant dense<3> : tensor<i32>
  %k = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%h = %x, %i = %i0) : tensor<2xf32>, tensor<i32>
    cond {
      %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %p = stablehlo.multiply %x, %x : tensor<2xf32>
      %q1 = stablehlo.add %h, %p : tensor<2xf32>
      %q2 = stablehlo.add %h, %p : tensor<2xf32>
      %m1 = stablehlo.multiply %q1, %q1 : tensor<2xf32>
      %m2 = stablehlo.multiply %q2, %q2 : tensor<2xf32>
      %s = stablehlo.subtract %m1, %m2 : tensor<2xf32>
      %t = stablehlo.add %q1, %s : tensor<2xf32>
      %i1 = stablehlo.add %i, %k : tensor<i32>
      stablehlo.return %t, %i1 : tensor<2xf32>, tensor<i32>
    }
  %lo = stablehlo.constant dense<0.0> : tensor<f32>
  %hi = stablehlo.constant dense<1.0> : tensor<f32>
  %shape = stablehlo.constant dense<[2]> : tensor<1xi64>
  %u1 = stablehlo.rng %lo, %hi, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<2xf32>
  %u2 = stablehlo.rng %lo, %hi, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<2xf32>
  %w = stablehlo.add %r#0, %o : tensor<2xf32>
  check.expect_almost_eq_const %w, dense<[5.0, 18.0]> : tensor<2xf32>
  check.expect_almost_eq_const %xb, dense<[1.0, 2.0]> : tensor<2xf32>
  func.return
}
