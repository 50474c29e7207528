// Products of a scan's row by a loop-invariant weight, hoisted out of counted while loops
// by the cpu backend (src/passes/loop_products.c: test_loop_products checks how many each
// function has hoisted); kiln check runs them on cpu and on the interpreter, which
// hoists nothing.

// The row reshaped to a vector, as JAX's scan reads xs[i]; out[i] = xs[i] @ w + h, and h
// carries the sum of the rows made so far.
// hoisted: 1
func.func @scan_rows() {
  %xs = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %w = stablehlo.constant dense<[[1.0, 0.0, -1.0], [2.0, 1.0, 0.5]]> : tensor<2x3xf32>
  %h0 = stablehlo.constant dense<0.0> : tensor<3xf32>
  %o0 = stablehlo.constant dense<0.0> : tensor<4x3xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<4> : tensor<i32>
  %r:5 = stablehlo.while(%x = %xs, %wt = %w, %h = %h0, %o = %o0, %i = %c0) : tensor<4x2xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<4x3xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %s = stablehlo.dynamic_slice %x, %i, %c0, sizes = [1, 2] : (tensor<4x2xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
      %v = stablehlo.reshape %s : (tensor<1x2xf32>) -> tensor<2xf32>
      %d = stablehlo.dot_general %v, %wt, contracting_dims = [0] x [0] : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3xf32>
      %h1 = stablehlo.add %d, %h : tensor<3xf32>
      %b = stablehlo.broadcast_in_dim %h1, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
      %o1 = stablehlo.dynamic_update_slice %o, %b, %i, %c0 : (tensor<4x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %x, %wt, %h1, %o1, %i1 : tensor<4x2xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<4x3xf32>, tensor<i32>
    }
  check.expect_eq_const %r#2, dense<[56.0, 20.0, -6.0]> : tensor<3xf32>
  check.expect_eq_const %r#3, dense<[[5.0, 2.0, 0.0], [16.0, 6.0, -1.0], [33.0, 12.0, -3.0], [56.0, 20.0, -6.0]]> : tensor<4x3xf32>
  func.return
}

// -----

// The row kept as a 1xK matrix (no reshape); the weight defined outside the loop and read
// from there; the counter on the right of the compare (GT), from 1 to 3 over 3 rows.
// hoisted: 1
func.func @row_matrix_outer_weight() {
  %xs = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %w = stablehlo.constant dense<[[1.0, 1.0], [0.0, 2.0]]> : tensor<2x2xf32>
  %a0 = stablehlo.constant dense<0.0> : tensor<1x2xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<3> : tensor<i32>
  %r:3 = stablehlo.while(%x = %xs, %a = %a0, %i = %c1) : tensor<3x2xf32>, tensor<1x2xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare GT, %n, %i, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %s = stablehlo.dynamic_slice %x, %i, %c0, sizes = [1, 2] : (tensor<3x2xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
      %d = stablehlo.dot_general %s, %w, contracting_dims = [1] x [0] : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
      %a1 = stablehlo.add %a, %d : tensor<1x2xf32>
      %i1 = stablehlo.add %c1, %i : tensor<i32>
      stablehlo.return %x, %a1, %i1 : tensor<3x2xf32>, tensor<1x2xf32>, tensor<i32>
    }
  check.expect_eq_const %r#1, dense<[[8.0, 28.0]]> : tensor<1x2xf32>
  func.return
}

// -----

// Indices past the last row (i + 2 for i in 0..4 over 4 rows) clamp to the last row, the
// same in the hoisted product; a 3-D sequence (rows of 2x2 matrices) times a weight.
// hoisted: 1
func.func @clamped_rows_3d() {
  %xs = stablehlo.constant dense<[[[1.0, 0.0], [0.0, 1.0]], [[2.0, 0.0], [0.0, 2.0]], [[1.0, 1.0], [1.0, 1.0]], [[0.0, 3.0], [3.0, 0.0]]]> : tensor<4x2x2xf32>
  %w = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %a0 = stablehlo.constant dense<0.0> : tensor<2x3xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %r:3 = stablehlo.while(%x = %xs, %a = %a0, %i = %c0) : tensor<4x2x2xf32>, tensor<2x3xf32>, tensor<i32>
    cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %j = stablehlo.add %i, %c2 : tensor<i32>
      %s = stablehlo.dynamic_slice %x, %j, %c0, %c0, sizes = [1, 2, 2] : (tensor<4x2x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x2xf32>
      %v = stablehlo.reshape %s : (tensor<1x2x2xf32>) -> tensor<2x2xf32>
      %d = stablehlo.dot_general %v, %w, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      %a1 = stablehlo.add %a, %d : tensor<2x3xf32>
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %x, %a1, %i1 : tensor<4x2x2xf32>, tensor<2x3xf32>, tensor<i32>
    }
  check.expect_eq_const %r#1, dense<[[41.0, 52.0, 63.0], [14.0, 25.0, 36.0]]> : tensor<2x3xf32>
  func.return
}

// -----

// Not hoisted: too few iterations for the rows (1 of 8), a weight the body changes, and
// the row's own dim contracted (the slice's leading 1).
// hoisted: 0
func.func @not_hoisted() {
  %xs = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [1.0, 1.0], [1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]> : tensor<8x2xf32>
  %w = stablehlo.constant dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf32>
  %a0 = stablehlo.constant dense<0.0> : tensor<2xf32>
  %m0 = stablehlo.constant dense<0.0> : tensor<2x2xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c8 = stablehlo.constant dense<8> : tensor<i32>
  %r:3 = stablehlo.while(%x = %xs, %a = %a0, %i = %c0) : tensor<8x2xf32>, tensor<2xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %c1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %s = stablehlo.dynamic_slice %x, %i, %c0, sizes = [1, 2] : (tensor<8x2xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
      %v = stablehlo.reshape %s : (tensor<1x2xf32>) -> tensor<2xf32>
      %d = stablehlo.dot_general %v, %w, contracting_dims = [0] x [0] : (tensor<2xf32>, tensor<2x2xf32>) -> tensor<2xf32>
      %a1 = stablehlo.add %a, %d : tensor<2xf32>
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %x, %a1, %i1 : tensor<8x2xf32>, tensor<2xf32>, tensor<i32>
    }
  check.expect_eq_const %r#1, dense<[1.0, 2.0]> : tensor<2xf32>
  %q:4 = stablehlo.while(%x = %xs, %wt = %w, %a = %a0, %i = %c0) : tensor<8x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %c8, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %s = stablehlo.dynamic_slice %x, %i, %c0, sizes = [1, 2] : (tensor<8x2xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
      %v = stablehlo.reshape %s : (tensor<1x2xf32>) -> tensor<2xf32>
      %d = stablehlo.dot_general %v, %wt, contracting_dims = [0] x [0] : (tensor<2xf32>, tensor<2x2xf32>) -> tensor<2xf32>
      %a1 = stablehlo.add %a, %d : tensor<2xf32>
      %w2 = stablehlo.add %wt, %wt : tensor<2x2xf32>
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %x, %w2, %a1, %i1 : tensor<8x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<i32>
    }
  check.expect_eq_const %q#2, dense<[323.0, 338.0]> : tensor<2xf32>
  %t:3 = stablehlo.while(%x = %xs, %m = %m0, %i = %c0) : tensor<8x2xf32>, tensor<2x2xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %c8, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %s = stablehlo.dynamic_slice %x, %i, %c0, sizes = [1, 2] : (tensor<8x2xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
      %ones = stablehlo.constant dense<1.0> : tensor<1x2xf32>
      %d = stablehlo.dot_general %s, %ones, contracting_dims = [0] x [0] : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
      %m1 = stablehlo.add %m, %d : tensor<2x2xf32>
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %x, %m1, %i1 : tensor<8x2xf32>, tensor<2x2xf32>, tensor<i32>
    }
  check.expect_eq_const %t#1, dense<[[20.0, 20.0], [24.0, 24.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// A loop in a loop: the inner scan's product leaves the inner loop (into the outer body,
// where it reads the outer loop's invariant values); both read one weight.
// hoisted: 1
func.func @nested_loops() {
  %xs = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %w = stablehlo.constant dense<[[1.0, 0.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %a0 = stablehlo.constant dense<0.0> : tensor<2xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %r:3 = stablehlo.while(%x = %xs, %a = %a0, %k = %c0) : tensor<2x2xf32>, tensor<2xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %k, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %in:3 = stablehlo.while(%y = %x, %b = %a, %i = %c0) : tensor<2x2xf32>, tensor<2xf32>, tensor<i32>
        cond {
          %p = stablehlo.compare LT, %i, %c2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
          stablehlo.return %p : tensor<i1>
        } do {
          %s = stablehlo.dynamic_slice %y, %i, %c0, sizes = [1, 2] : (tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
          %v = stablehlo.reshape %s : (tensor<1x2xf32>) -> tensor<2xf32>
          %d = stablehlo.dot_general %v, %w, contracting_dims = [0] x [0] : (tensor<2xf32>, tensor<2x2xf32>) -> tensor<2xf32>
          %b1 = stablehlo.add %b, %d : tensor<2xf32>
          %i1 = stablehlo.add %i, %c1 : tensor<i32>
          stablehlo.return %y, %b1, %i1 : tensor<2x2xf32>, tensor<2xf32>, tensor<i32>
        }
      %k1 = stablehlo.add %k, %c1 : tensor<i32>
      stablehlo.return %x, %in#1, %k1 : tensor<2x2xf32>, tensor<2xf32>, tensor<i32>
    }
  check.expect_eq_const %r#1, dense<[30.0, 18.0]> : tensor<2xf32>
  func.return
}

// -----

// Not hoisted: the product (1024 x 32768 f32, 128 MiB) would be over 64 MiB and over 4
// times the sequence's bytes (4 KiB).
// hoisted: 0
func.func @product_too_large() {
  %xs = stablehlo.constant dense<1.0> : tensor<1024x1xf32>
  %w = stablehlo.constant dense<1.0> : tensor<1x32768xf32>
  %a0 = stablehlo.constant dense<0.0> : tensor<32768xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<256> : tensor<i32>
  %r:3 = stablehlo.while(%x = %xs, %a = %a0, %i = %c0) : tensor<1024x1xf32>, tensor<32768xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %s = stablehlo.dynamic_slice %x, %i, %c0, sizes = [1, 1] : (tensor<1024x1xf32>, tensor<i32>, tensor<i32>) -> tensor<1x1xf32>
      %v = stablehlo.reshape %s : (tensor<1x1xf32>) -> tensor<1xf32>
      %d = stablehlo.dot_general %v, %w, contracting_dims = [0] x [0] : (tensor<1xf32>, tensor<1x32768xf32>) -> tensor<32768xf32>
      %a1 = stablehlo.add %a, %d : tensor<32768xf32>
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %x, %a1, %i1 : tensor<1024x1xf32>, tensor<32768xf32>, tensor<i32>
    }
  check.expect_eq_const %r#1, dense<256.0> : tensor<32768xf32>
  func.return
}
