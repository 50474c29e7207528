// Counted while loops of few iterations unrolled by the cpu backend (src/passes/unroll_loops.c:
// test_loop_passes checks how many loops each function has unrolled); kiln check runs them on
// cpu and on the interpreter, which unrolls nothing.

// Two carried arrays and a second counter that the body reads, as JAX's threefry has them:
// x' = x + y, y' = (y << 1) ^ x' + j, j' = j + 1, five times.
// unrolled: 1
func.func @threefry_like() {
  %x0 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xui32>
  %y0 = stablehlo.constant dense<[4, 5, 6]> : tensor<3xui32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<5> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<3xui32>
  %r:4 = stablehlo.while(%i = %c0, %j = %c0, %x = %x0, %y = %y0) : tensor<i32>, tensor<i32>, tensor<3xui32>, tensor<3xui32>
    cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %x1 = stablehlo.add %x, %y : tensor<3xui32>
      %s = stablehlo.shift_left %y, %one : tensor<3xui32>
      %t = stablehlo.xor %s, %x1 : tensor<3xui32>
      %ju = stablehlo.convert %j : (tensor<i32>) -> tensor<ui32>
      %jb = stablehlo.broadcast_in_dim %ju, dims = [] : (tensor<ui32>) -> tensor<3xui32>
      %y1 = stablehlo.add %t, %jb : tensor<3xui32>
      %j1 = stablehlo.add %j, %c1 : tensor<i32>
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %i1, %j1, %x1, %y1 : tensor<i32>, tensor<i32>, tensor<3xui32>, tensor<3xui32>
    }
  check.expect_eq_const %r#0, dense<5> : tensor<i32>
  check.expect_eq_const %r#1, dense<5> : tensor<i32>
  check.expect_eq_const %r#2, dense<[89, 129, 73]> : tensor<3xui32>
  check.expect_eq_const %r#3, dense<[67, 195, 131]> : tensor<3xui32>
  func.return
}

// -----

// The counter on the right of the compare (GT: 4 > i), from 1: three iterations of a
// float update; the loop's results read by ops after it.
// unrolled: 1
func.func @counter_on_the_right() {
  %a0 = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %n = stablehlo.constant dense<4> : tensor<i64>
  %two = stablehlo.constant dense<2.0> : tensor<2xf32>
  %r:2 = stablehlo.while(%a = %a0, %i = %c1) : tensor<2xf32>, tensor<i64>
    cond {
      %p = stablehlo.compare GT, %n, %i, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %m = stablehlo.multiply %a, %two : tensor<2xf32>
      %a1 = stablehlo.add %m, %two : tensor<2xf32>
      %i1 = stablehlo.add %c1, %i : tensor<i64>
      stablehlo.return %a1, %i1 : tensor<2xf32>, tensor<i64>
    }
  %neg = stablehlo.negate %r#0 : tensor<2xf32>
  check.expect_eq_const %neg, dense<[-22.0, 2.0]> : tensor<2xf32>
  check.expect_eq_const %r#1, dense<4> : tensor<i64>
  func.return
}

// -----

// No iteration (the counter starts at its bound, LE counts one more: still none from 6 to
// 5): the results are the loop's operands.
// unrolled: 1
func.func @no_iteration() {
  %a0 = stablehlo.constant dense<[3.0]> : tensor<1xf32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c6 = stablehlo.constant dense<6> : tensor<i32>
  %n = stablehlo.constant dense<5> : tensor<i32>
  %r:2 = stablehlo.while(%a = %a0, %i = %c6) : tensor<1xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LE, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %a1 = stablehlo.add %a, %a : tensor<1xf32>
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %a1, %i1 : tensor<1xf32>, tensor<i32>
    }
  check.expect_eq_const %r#0, dense<[3.0]> : tensor<1xf32>
  check.expect_eq_const %r#1, dense<6> : tensor<i32>
  func.return
}

// -----

// An inner loop of 3 iterations in an outer loop of 2: the inner one first, then the outer
// one, whose body no longer loops; the outer results read inside a later loop's body (a
// counter from a computed start, which stays a loop).
// unrolled: 2
func.func @nested_and_read_in_a_region() {
  %a0 = stablehlo.constant dense<1> : tensor<2xi32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %r:2 = stablehlo.while(%a = %a0, %i = %c0) : tensor<2xi32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %c2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %s:2 = stablehlo.while(%b = %a, %k = %c0) : tensor<2xi32>, tensor<i32>
        cond {
          %q = stablehlo.compare LT, %k, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
          stablehlo.return %q : tensor<i1>
        } do {
          %b1 = stablehlo.add %b, %b : tensor<2xi32>
          %k1 = stablehlo.add %k, %c1 : tensor<i32>
          stablehlo.return %b1, %k1 : tensor<2xi32>, tensor<i32>
        }
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %s#0, %i1 : tensor<2xi32>, tensor<i32>
    }
  %start = stablehlo.add %c0, %c0 : tensor<i32>
  %t:2 = stablehlo.while(%acc = %c0, %m = %start) : tensor<i32>, tensor<i32>
    cond {
      %q = stablehlo.compare LT, %m, %c2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %q : tensor<i1>
    } do {
      %e = stablehlo.slice %r#0 [0:1] : (tensor<2xi32>) -> tensor<1xi32>
      %es = stablehlo.reshape %e : (tensor<1xi32>) -> tensor<i32>
      %acc1 = stablehlo.add %acc, %es : tensor<i32>
      %m1 = stablehlo.add %m, %c1 : tensor<i32>
      stablehlo.return %acc1, %m1 : tensor<i32>, tensor<i32>
    }
  check.expect_eq_const %r#0, dense<64> : tensor<2xi32>
  check.expect_eq_const %t#0, dense<128> : tensor<i32>
  func.return
}

// -----

// Nine iterations: more than the pass unrolls; stays a loop.
// unrolled: 0
func.func @too_many_trips() {
  %a0 = stablehlo.constant dense<1.0> : tensor<f32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<9> : tensor<i32>
  %r:2 = stablehlo.while(%a = %a0, %i = %c0) : tensor<f32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %a1 = stablehlo.add %a, %a : tensor<f32>
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %a1, %i1 : tensor<f32>, tensor<i32>
    }
  check.expect_eq_const %r#0, dense<512.0> : tensor<f32>
  func.return
}

// -----

// A collective in the body: each copy would be an exchange of its own; stays a loop.
// unrolled: 0
func.func @collective_in_the_body() {
  %a0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<2> : tensor<i32>
  %r:2 = stablehlo.while(%a = %a0, %i = %c0) : tensor<2xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %s = "stablehlo.all_reduce"(%a) ({
        ^bb0(%u: tensor<f32>, %v: tensor<f32>):
          %w = stablehlo.add %u, %v : tensor<f32>
          stablehlo.return %w : tensor<f32>
      }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2xf32>) -> tensor<2xf32>
      %a1 = stablehlo.add %s, %a : tensor<2xf32>
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %a1, %i1 : tensor<2xf32>, tensor<i32>
    }
  check.expect_eq_const %r#0, dense<[4.0, 8.0]> : tensor<2xf32>
  func.return
}

// -----

// An unsigned 8-bit counter from 126 up to 130 (read as signed it would be 126 up to -126:
// no iteration): four iterations.
// unrolled: 1
func.func @unsigned_counter() {
  %a0 = stablehlo.constant dense<1> : tensor<i32>
  %u0 = stablehlo.constant dense<126> : tensor<ui8>
  %un = stablehlo.constant dense<130> : tensor<ui8>
  %u1 = stablehlo.constant dense<1> : tensor<ui8>
  %r:2 = stablehlo.while(%a = %a0, %i = %u0) : tensor<i32>, tensor<ui8>
    cond {
      %p = stablehlo.compare LT, %i, %un, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %a1 = stablehlo.add %a, %a : tensor<i32>
      %i1 = stablehlo.add %i, %u1 : tensor<ui8>
      stablehlo.return %a1, %i1 : tensor<i32>, tensor<ui8>
    }
  check.expect_eq_const %r#0, dense<16> : tensor<i32>
  check.expect_eq_const %r#1, dense<130> : tensor<ui8>
  func.return
}

// -----

// A loop the specialiser keeps (kiln.keep_loop: its trip count came from a symbolic size)
// is still its body when it runs once.
// unrolled: 1
func.func @kept_one_trip() {
  %a0 = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %two = stablehlo.constant dense<2.0> : tensor<2xf32>
  %r:2 = stablehlo.while(%a = %a0, %i = %c0) : tensor<2xf32>, tensor<i32> attributes {kiln.keep_loop}
    cond {
      %p = stablehlo.compare LT, %i, %c1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %a1 = stablehlo.multiply %a, %two : tensor<2xf32>
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %a1, %i1 : tensor<2xf32>, tensor<i32>
    }
  check.expect_eq_const %r#0, dense<[2.0, -4.0]> : tensor<2xf32>
  check.expect_eq_const %r#1, dense<1> : tensor<i32>
  func.return
}

// -----

// Kept, and two trips: a loop still.
// unrolled: 0
func.func @kept_two_trips() {
  %a0 = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<2> : tensor<i32>
  %two = stablehlo.constant dense<2.0> : tensor<2xf32>
  %r:2 = stablehlo.while(%a = %a0, %i = %c0) : tensor<2xf32>, tensor<i32> attributes {kiln.keep_loop}
    cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %a1 = stablehlo.multiply %a, %two : tensor<2xf32>
      %i1 = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %a1, %i1 : tensor<2xf32>, tensor<i32>
    }
  check.expect_eq_const %r#0, dense<[4.0, -8.0]> : tensor<2xf32>
  check.expect_eq_const %r#1, dense<2> : tensor<i32>
  func.return
}
