// Algebraic rewrites of the cpu backend's planned function (src/passes/canonicalize.c:
// test_loop_passes checks how many each function has made); kiln check runs them on cpu
// and on the interpreter, which rewrites nothing.

// Ops that compute their operand unchanged go: a pad by nothing (as jnp.fft's irfft
// emits), a whole slice, identity transpose and broadcast_in_dim, a reverse along a dim of
// 1, a reshape and a convert to the operand's own type; the readers read the operand.
// The pad's padding value, read by nothing then, goes too.
// rewritten: 8
func.func @identities() {
  %x = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %xb = stablehlo.optimization_barrier %x : tensor<2x3xf32>
  %p = stablehlo.pad %xb, %z, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %s = stablehlo.slice %p [0:2, 0:3] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %t = stablehlo.transpose %s, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %b = stablehlo.broadcast_in_dim %t, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = stablehlo.reshape %b : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %c = stablehlo.convert %r : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %one = stablehlo.reshape %c : (tensor<2x3xf32>) -> tensor<1x6xf32>
  %v = stablehlo.reverse %one, dims = [0] : tensor<1x6xf32>
  %w = stablehlo.add %v, %v : tensor<1x6xf32>
  check.expect_almost_eq_const %w, dense<[[2.0, 4.0, 6.0, 8.0, 10.0, 12.0]]> : tensor<1x6xf32>
  func.return
}

// -----

// Same shapes, other values: a pad that shifts (low -1, high 1), a transpose and a
// broadcast_in_dim that swap a square's dims, a reverse along a dim of 2, a strided slice
// of a dim of 1, converts that change the type: none is an identity.
// rewritten: 0
func.func @not_identities() {
  %x = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %z = stablehlo.constant dense<9.0> : tensor<f32>
  %xb = stablehlo.optimization_barrier %x : tensor<2x2xf32>
  %p = stablehlo.pad %xb, %z, low = [0, -1], high = [0, 1], interior = [0, 0] : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %p, dense<[[2.0, 9.0], [4.0, 9.0]]> : tensor<2x2xf32>
  %t = stablehlo.transpose %xb, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %t, dense<[[1.0, 3.0], [2.0, 4.0]]> : tensor<2x2xf32>
  %b = stablehlo.broadcast_in_dim %xb, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %b, dense<[[1.0, 3.0], [2.0, 4.0]]> : tensor<2x2xf32>
  %v = stablehlo.reverse %xb, dims = [1] : tensor<2x2xf32>
  check.expect_almost_eq_const %v, dense<[[2.0, 1.0], [4.0, 3.0]]> : tensor<2x2xf32>
  %i = stablehlo.convert %xb : (tensor<2x2xf32>) -> tensor<2x2xi32>
  %f = stablehlo.convert %i : (tensor<2x2xi32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %f, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// Inside a loop's body and condition: the identity pad and slice of the carried value go,
// the loop reading its carried value directly; a whole slice returned by the body too;
// the padding value, read by nothing then, goes.
// rewritten: 4
func.func @identities_in_loop() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %i0 = stablehlo.optimization_barrier %c0 : tensor<i32>
  %r:2 = stablehlo.while(%i = %i0, %v = %x) : tensor<i32>, tensor<3xf32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %s = stablehlo.slice %v [0:3] : (tensor<3xf32>) -> tensor<3xf32>
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %p = stablehlo.pad %v, %z, low = [0], high = [0], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
      %d = stablehlo.add %p, %p : tensor<3xf32>
      %s = stablehlo.slice %d [0:3] : (tensor<3xf32>) -> tensor<3xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %j, %s : tensor<i32>, tensor<3xf32>
    }
  check.expect_almost_eq_const %r#1, dense<[8.0, 16.0, 24.0]> : tensor<3xf32>
  func.return
}

// -----

// Ops nothing reads go, last first, so that what only they read goes too: a dead chain of
// an exp and an add, a dead reduce (its body pure), a dead pad by nothing (an identity,
// counted there) and then the zero both read; the live sum stays.
// rewritten: 5
func.func @dead_ops() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %xb = stablehlo.optimization_barrier %x : tensor<3xf32>
  %e = stablehlo.exponential %xb : tensor<3xf32>
  %f = stablehlo.add %e, %e : tensor<3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%xb init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
  %p = stablehlo.pad %xb, %zero, low = [0], high = [0], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %s = stablehlo.add %xb, %xb : tensor<3xf32>
  check.expect_almost_eq_const %s, dense<[2.0, 4.0, 6.0]> : tensor<3xf32>
  func.return
}

// -----

// What may not go stays though nothing reads it: a while loop (control flow is kept as
// written), a barrier.
// rewritten: 0
func.func @dead_but_kept() {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %w = stablehlo.while(%i = %c0) : tensor<i32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %j : tensor<i32>
    }
  %b = stablehlo.optimization_barrier %c0 : tensor<i32>
  func.return
}

// -----

// A slice of a concatenate inside one of its operands slices that operand (two rewrites
// when that is the whole operand: the slice, then the identity); one across two
// operands stays, and keeps the concatenate.
// rewritten: 6
func.func @slices_of_concatenate() {
  %a0 = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b0 = stablehlo.constant dense<[[7.0, 8.0], [9.0, 10.0]]> : tensor<2x2xf32>
  %a = stablehlo.optimization_barrier %a0 : tensor<2x3xf32>
  %b = stablehlo.optimization_barrier %b0 : tensor<2x2xf32>
  %c = stablehlo.concatenate %a, %b, dim = 1 : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
  %s1 = stablehlo.slice %c [0:2, 0:3] : (tensor<2x5xf32>) -> tensor<2x3xf32>
  %s2 = stablehlo.slice %c [0:2, 3:5] : (tensor<2x5xf32>) -> tensor<2x2xf32>
  %s3 = stablehlo.slice %c [0:2, 1:3] : (tensor<2x5xf32>) -> tensor<2x2xf32>
  %s4 = stablehlo.slice %c [0:2, 3:5:2] : (tensor<2x5xf32>) -> tensor<2x1xf32>
  %s5 = stablehlo.slice %c [0:2, 2:4] : (tensor<2x5xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %s1, dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  check.expect_eq_const %s2, dense<[[7.0, 8.0], [9.0, 10.0]]> : tensor<2x2xf32>
  check.expect_eq_const %s3, dense<[[2.0, 3.0], [5.0, 6.0]]> : tensor<2x2xf32>
  check.expect_eq_const %s4, dense<[[7.0], [9.0]]> : tensor<2x1xf32>
  check.expect_eq_const %s5, dense<[[3.0, 7.0], [6.0, 9.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// A transposed operand of a product is read as it stands, its dims mapped through the
// permutation: x @ w.T (rhs), a.T @ b (lhs), both sides of one product (two rewrites),
// a batch of products with the rhs's last two dims swapped; the transposes go.
// rewritten: 5
func.func @transposed_operands() {
  %x0 = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %w0 = stablehlo.constant dense<[[1.0, 0.0, 1.0], [2.0, 1.0, 0.0]]> : tensor<2x3xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<2x3xf32>
  %w = stablehlo.optimization_barrier %w0 : tensor<2x3xf32>
  %wt = stablehlo.transpose %w, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %p = stablehlo.dot_general %x, %wt, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %p, dense<[[4.0, 4.0], [10.0, 13.0]]> : tensor<2x2xf32>
  %a0 = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %b0 = stablehlo.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %a = stablehlo.optimization_barrier %a0 : tensor<3x2xf32>
  %b = stablehlo.optimization_barrier %b0 : tensor<3x2xf32>
  %at = stablehlo.transpose %a, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %q = stablehlo.dot_general %at, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %q, dense<[[6.0, 8.0], [8.0, 10.0]]> : tensor<2x2xf32>
  %at2 = stablehlo.transpose %a, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %bt = stablehlo.transpose %b, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %r = stablehlo.dot_general %at2, %bt, contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %r, dense<[[6.0, 8.0], [8.0, 10.0]]> : tensor<2x2xf32>
  %l0 = stablehlo.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]]> : tensor<2x2x3xf32>
  %m0 = stablehlo.constant dense<[[[1.0, 0.0, 1.0], [2.0, 1.0, 0.0]], [[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]]]> : tensor<2x2x3xf32>
  %l = stablehlo.optimization_barrier %l0 : tensor<2x2x3xf32>
  %m = stablehlo.optimization_barrier %m0 : tensor<2x2x3xf32>
  %mt = stablehlo.transpose %m, dims = [0, 2, 1] : (tensor<2x2x3xf32>) -> tensor<2x3x2xf32>
  %s = stablehlo.dot_general %l, %mt, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x3xf32>, tensor<2x3x2xf32>) -> tensor<2x2x2xf32>
  check.expect_almost_eq_const %s, dense<[[[4.0, 4.0], [10.0, 13.0]], [[6.0, 6.0], [0.0, 0.0]]]> : tensor<2x2x2xf32>
  func.return
}

// -----

// Not folded: a transpose that swaps the rhs's two free dims (read in place, the result's
// dims would come out swapped). Folded but kept: a transpose something else reads too;
// one in a branch of a case, reading a value from outside it.
// rewritten: 2
func.func @transposed_operands_kept() {
  %x0 = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<2x3xf32>
  %q0 = stablehlo.constant dense<[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]], [[8.0, 9.0], [10.0, 11.0]]]> : tensor<3x2x2xf32>
  %q = stablehlo.optimization_barrier %q0 : tensor<3x2x2xf32>
  %qt = stablehlo.transpose %q, dims = [0, 2, 1] : (tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
  %p = stablehlo.dot_general %x, %qt, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2x2xf32>) -> tensor<2x2x2xf32>
  check.expect_almost_eq_const %p, dense<[[[32.0, 44.0], [38.0, 50.0]], [[68.0, 98.0], [83.0, 113.0]]]> : tensor<2x2x2xf32>
  %w0 = stablehlo.constant dense<[[1.0, 0.0, 1.0], [2.0, 1.0, 0.0]]> : tensor<2x3xf32>
  %w = stablehlo.optimization_barrier %w0 : tensor<2x3xf32>
  %wt = stablehlo.transpose %w, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %d = stablehlo.dot_general %x, %wt, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %e = stablehlo.add %wt, %wt : tensor<3x2xf32>
  check.expect_almost_eq_const %d, dense<[[4.0, 4.0], [10.0, 13.0]]> : tensor<2x2xf32>
  check.expect_almost_eq_const %e, dense<[[2.0, 4.0], [0.0, 2.0], [2.0, 0.0]]> : tensor<3x2xf32>
  %i0 = stablehlo.constant dense<1> : tensor<i32>
  %i = stablehlo.optimization_barrier %i0 : tensor<i32>
  %c = "stablehlo.case"(%i) ({
    stablehlo.return %x : tensor<2x3xf32>
  }, {
    %t = stablehlo.transpose %w, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %f = stablehlo.dot_general %t, %x, contracting_dims = [1] x [0] : (tensor<3x2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
    %g = stablehlo.slice %f [0:2, 0:3] : (tensor<3x3xf32>) -> tensor<2x3xf32>
    stablehlo.return %g : tensor<2x3xf32>
  }) : (tensor<i32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const %c, dense<[[9.0, 12.0, 15.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  func.return
}

// -----

// A concatenate of a concatenate along the same dim, read by nothing else, joins its
// operands at once (twice here: a chain of three joins becomes one). Kept: one along
// another dim, and one something else reads too.
// rewritten: 2
func.func @concatenates_flattened() {
  %a0 = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b0 = stablehlo.constant dense<[[5.0, 6.0]]> : tensor<1x2xf32>
  %a = stablehlo.optimization_barrier %a0 : tensor<2x2xf32>
  %b = stablehlo.optimization_barrier %b0 : tensor<1x2xf32>
  %c1 = stablehlo.concatenate %b, %a, dim = 0 : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  %c2 = stablehlo.concatenate %c1, %b, dim = 0 : (tensor<3x2xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
  %c3 = stablehlo.concatenate %a, %c2, dim = 0 : (tensor<2x2xf32>, tensor<4x2xf32>) -> tensor<6x2xf32>
  check.expect_eq_const %c3, dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<6x2xf32>
  %d1 = stablehlo.concatenate %a, %a, dim = 1 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x4xf32>
  %z0 = stablehlo.constant dense<[[7.0, 8.0, 9.0, 10.0]]> : tensor<1x4xf32>
  %z = stablehlo.optimization_barrier %z0 : tensor<1x4xf32>
  %d2 = stablehlo.concatenate %d1, %z, dim = 0 : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  check.expect_eq_const %d2, dense<[[1.0, 2.0, 1.0, 2.0], [3.0, 4.0, 3.0, 4.0], [7.0, 8.0, 9.0, 10.0]]> : tensor<3x4xf32>
  %e1 = stablehlo.concatenate %b, %b, dim = 0 : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
  %e2 = stablehlo.concatenate %e1, %a, dim = 0 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  %e3 = stablehlo.add %e1, %a : tensor<2x2xf32>
  check.expect_eq_const %e2, dense<[[5.0, 6.0], [5.0, 6.0], [1.0, 2.0], [3.0, 4.0]]> : tensor<4x2xf32>
  check.expect_eq_const %e3, dense<[[6.0, 8.0], [8.0, 10.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// A division by a broadcast value stays a division: an int8 quantisation's round(x / s)
// is a whole step off where x * (1 / s) rounds across a half instead (s = 0.02: x = -19.93
// gives -997 divided, -996 through the reciprocal).
// rewritten: 0
func.func @divided_by_broadcast() {
  %x0 = stablehlo.constant dense<[0xC19F70A4, 0xC19ECCCD, 0x419F70A4]> : tensor<3xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<3xf32>
  %s0 = stablehlo.constant dense<0x3CA3D70A> : tensor<f32>
  %s = stablehlo.optimization_barrier %s0 : tensor<f32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<3xf32>
  %q = stablehlo.divide %x, %sb : tensor<3xf32>
  %r = stablehlo.round_nearest_even %q : tensor<3xf32>
  check.expect_eq_const %r, dense<[-997.0, -993.0, 997.0]> : tensor<3xf32>
  func.return
}
