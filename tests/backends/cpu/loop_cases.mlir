// while loops on the cpu device: carried values the body returns unchanged stay where they
// are (no copy per iteration, control.c), mixed with ones it swaps, duplicates and updates.
// Each counter starts from an optimization_barrier, so that these short loops stay loops
// (a counted loop from a constant of at most 8 iterations is unrolled: unroll_loops.c).

// A scan: the weight and the bias pass through, the state and the counter change.
func.func @invariant_weights() {
  %w = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<[0.5, -0.5]> : tensor<2xf32>
  %h0 = stablehlo.constant dense<[[1.0, 1.0]]> : tensor<1x2xf32>
  %i0c = stablehlo.constant dense<0> : tensor<i32>
  %i0 = stablehlo.optimization_barrier %i0c : tensor<i32>
  %n = stablehlo.constant dense<3> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r:4 = stablehlo.while(%w1 = %w, %h = %h0, %b1 = %b, %i = %i0) : tensor<2x2xf32>, tensor<1x2xf32>, tensor<2xf32>, tensor<i32>
    cond {
      %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %d = stablehlo.dot_general %h, %w1, contracting_dims = [1] x [0] : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
      %bb = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
      %s = stablehlo.add %d, %bb : tensor<1x2xf32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %w1, %s, %b1, %i1 : tensor<2x2xf32>, tensor<1x2xf32>, tensor<2xf32>, tensor<i32>
    }
  check.expect_eq_const %r#0, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  check.expect_eq_const %r#1, dense<[[113.5, 164.5]]> : tensor<1x2xf32>
  check.expect_eq_const %r#2, dense<[0.5, -0.5]> : tensor<2xf32>
  check.expect_eq_const %r#3, dense<3> : tensor<i32>
  func.return
}

// -----

// Not invariant: the body swaps two carried values, and returns one argument twice.
func.func @swapped_and_duplicated() {
  %a0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b0 = stablehlo.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %c0 = stablehlo.constant dense<[7.0, 8.0]> : tensor<2xf32>
  %i0c = stablehlo.constant dense<0> : tensor<i32>
  %i0 = stablehlo.optimization_barrier %i0c : tensor<i32>
  %n = stablehlo.constant dense<3> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r:4 = stablehlo.while(%a = %a0, %b = %b0, %c = %c0, %i = %i0) : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %b, %a, %a, %i1 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<i32>
    }
  check.expect_eq_const %r#0, dense<[10.0, 20.0]> : tensor<2xf32>
  check.expect_eq_const %r#1, dense<[1.0, 2.0]> : tensor<2xf32>
  check.expect_eq_const %r#2, dense<[1.0, 2.0]> : tensor<2xf32>
  check.expect_eq_const %r#3, dense<3> : tensor<i32>
  func.return
}

// -----

// A loop that never runs its body: every value comes back as it went in.
func.func @zero_trips() {
  %w = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %i0 = stablehlo.constant dense<5> : tensor<i32>
  %n = stablehlo.constant dense<3> : tensor<i32>
  %r:2 = stablehlo.while(%w1 = %w, %i = %i0) : tensor<2xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      stablehlo.return %w1, %i : tensor<2xf32>, tensor<i32>
    }
  check.expect_eq_const %r#0, dense<[3.0, 4.0]> : tensor<2xf32>
  check.expect_eq_const %r#1, dense<5> : tensor<i32>
  func.return
}

// -----

// A scan writing one row of its output per iteration: the dynamic_update_slice is made in
// the carried tensor itself (no copy of the whole output per iteration); the row it never
// writes keeps its first value.
func.func @update_in_place() {
  %o0 = stablehlo.constant dense<9.0> : tensor<4x2xf32>
  %i0c = stablehlo.constant dense<0> : tensor<i32>
  %i0 = stablehlo.optimization_barrier %i0c : tensor<i32>
  %n = stablehlo.constant dense<3> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%o = %o0, %i = %i0) : tensor<4x2xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %f = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
      %row = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<1x2xf32>
      %u = stablehlo.dynamic_update_slice %o, %row, %i, %zero : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %u, %i1 : tensor<4x2xf32>, tensor<i32>
    }
  check.expect_eq_const %r#0, dense<[[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [9.0, 9.0]]> : tensor<4x2xf32>
  func.return
}

// -----

// Not in place: the body reads the carried value after updating it (a slice of row 0, which
// the first iteration overwrites: it must see the 9s first, then 0 and 1).
func.func @update_then_read() {
  %o0 = stablehlo.constant dense<9.0> : tensor<4x2xf32>
  %a0 = stablehlo.constant dense<0.0> : tensor<1x2xf32>
  %i0c = stablehlo.constant dense<0> : tensor<i32>
  %i0 = stablehlo.optimization_barrier %i0c : tensor<i32>
  %n = stablehlo.constant dense<3> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%o = %o0, %acc = %a0, %i = %i0) : tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %f = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
      %row = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<1x2xf32>
      %u = stablehlo.dynamic_update_slice %o, %row, %zero, %zero : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      %s = stablehlo.slice %o [0:1, 0:2] : (tensor<4x2xf32>) -> tensor<1x2xf32>
      %acc1 = stablehlo.add %acc, %s : tensor<1x2xf32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %u, %acc1, %i1 : tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>
    }
  check.expect_eq_const %r#0, dense<[[2.0, 2.0], [9.0, 9.0], [9.0, 9.0], [9.0, 9.0]]> : tensor<4x2xf32>
  check.expect_eq_const %r#1, dense<[[10.0, 10.0]]> : tensor<1x2xf32>
  func.return
}

// -----

// Not in place: the body also returns the value before its update (as another carried
// value), or updates it with itself.
func.func @update_and_keep_old() {
  %o0 = stablehlo.constant dense<9.0> : tensor<4x2xf32>
  %i0c = stablehlo.constant dense<0> : tensor<i32>
  %i0 = stablehlo.optimization_barrier %i0c : tensor<i32>
  %n = stablehlo.constant dense<3> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%o = %o0, %old = %o0, %q = %o0, %i = %i0) : tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %f = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
      %row = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<1x2xf32>
      %u = stablehlo.dynamic_update_slice %o, %row, %zero, %zero : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      %qv = stablehlo.dynamic_update_slice %q, %q, %zero, %zero : (tensor<4x2xf32>, tensor<4x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %u, %o, %qv, %i1 : tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<i32>
    }
  check.expect_eq_const %r#0, dense<[[2.0, 2.0], [9.0, 9.0], [9.0, 9.0], [9.0, 9.0]]> : tensor<4x2xf32>
  check.expect_eq_const %r#1, dense<[[1.0, 1.0], [9.0, 9.0], [9.0, 9.0], [9.0, 9.0]]> : tensor<4x2xf32>
  check.expect_eq_const %r#2, dense<9.0> : tensor<4x2xf32>
  func.return
}

// -----

// Conditions that compare two integer scalars are evaluated by the step itself (control.c:
// direct_cond): every direction, the bound on either side, inside the condition or
// outside the loop, signed and unsigned (the unsigned loop runs no iteration if compared
// as signed), 8 and 64 bits.
func.func @direct_conditions() {
  %zc = stablehlo.constant dense<0> : tensor<i32>
  %z = stablehlo.optimization_barrier %zc : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %five = stablehlo.constant dense<5> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %a:2 = stablehlo.while(%i = %z, %s = %z) : tensor<i32>, tensor<i32>
    cond {
      %p = stablehlo.compare NE, %i, %five, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %one : tensor<i32>
      %s1 = stablehlo.add %s, %i : tensor<i32>
      stablehlo.return %i1, %s1 : tensor<i32>, tensor<i32>
    }
  check.expect_eq_const %a#0, dense<5> : tensor<i32>
  check.expect_eq_const %a#1, dense<10> : tensor<i32>
  %b:2 = stablehlo.while(%i = %five, %s = %z) : tensor<i32>, tensor<i32>
    cond {
      %zero = stablehlo.constant dense<0> : tensor<i32>
      %p = stablehlo.compare GT, %i, %zero, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.subtract %i, %one : tensor<i32>
      %s1 = stablehlo.add %s, %i : tensor<i32>
      stablehlo.return %i1, %s1 : tensor<i32>, tensor<i32>
    }
  check.expect_eq_const %b#0, dense<0> : tensor<i32>
  check.expect_eq_const %b#1, dense<15> : tensor<i32>
  %c:2 = stablehlo.while(%i = %z, %s = %z) : tensor<i32>, tensor<i32>
    cond {
      %p = stablehlo.compare GE, %three, %i, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %one : tensor<i32>
      %s1 = stablehlo.add %s, %i : tensor<i32>
      stablehlo.return %i1, %s1 : tensor<i32>, tensor<i32>
    }
  check.expect_eq_const %c#0, dense<4> : tensor<i32>
  check.expect_eq_const %c#1, dense<6> : tensor<i32>
  %u0c = stablehlo.constant dense<2147483645> : tensor<ui32>
  %u0 = stablehlo.optimization_barrier %u0c : tensor<ui32>
  %un = stablehlo.constant dense<2147483650> : tensor<ui32>
  %u1 = stablehlo.constant dense<1> : tensor<ui32>
  %d:2 = stablehlo.while(%i = %u0, %s = %z) : tensor<ui32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %un, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %u1 : tensor<ui32>
      %s1 = stablehlo.add %s, %one : tensor<i32>
      stablehlo.return %i1, %s1 : tensor<ui32>, tensor<i32>
    }
  check.expect_eq_const %d#0, dense<2147483650> : tensor<ui32>
  check.expect_eq_const %d#1, dense<5> : tensor<i32>
  %l0 = stablehlo.constant dense<0> : tensor<i64>
  %l1 = stablehlo.constant dense<1> : tensor<i64>
  %e = stablehlo.while(%i = %l0) : tensor<i64>
    cond {
      %p = stablehlo.compare EQ, %i, %l0, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %l1 : tensor<i64>
      stablehlo.return %i1 : tensor<i64>
    }
  check.expect_eq_const %e, dense<1> : tensor<i64>
  %b0c = stablehlo.constant dense<-3> : tensor<i8>
  %b0 = stablehlo.optimization_barrier %b0c : tensor<i8>
  %b2 = stablehlo.constant dense<2> : tensor<i8>
  %b1 = stablehlo.constant dense<1> : tensor<i8>
  %f:2 = stablehlo.while(%i = %b0, %s = %z) : tensor<i8>, tensor<i32>
    cond {
      %p = stablehlo.compare LE, %i, %b2, SIGNED : (tensor<i8>, tensor<i8>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %i1 = stablehlo.add %i, %b1 : tensor<i8>
      %s1 = stablehlo.add %s, %one : tensor<i32>
      stablehlo.return %i1, %s1 : tensor<i8>, tensor<i32>
    }
  check.expect_eq_const %f#0, dense<3> : tensor<i8>
  check.expect_eq_const %f#1, dense<6> : tensor<i32>
  func.return
}

// -----

// Bodies of generated code only: the loop replays their steps on argument arrays made once
// (control.c: run_while_lean), each value it makes alternating between two tensors. One
// trip, an even and an odd number (the result in the first or the second tensor), a
// captured value (k), one updated in place (o), one unchanged (w), and results nothing
// reads (the second loop's acc, the third's v).
func.func @lean_bodies() {
  %v0 = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %acc0 = stablehlo.constant dense<0.0> : tensor<3xf32>
  %w0 = stablehlo.constant dense<[0.25, -1.0, 2.0]> : tensor<3xf32>
  %o0 = stablehlo.constant dense<7.0> : tensor<6x3xf32>
  %kc = stablehlo.constant dense<0.5> : tensor<3xf32>
  %k = stablehlo.optimization_barrier %kc : tensor<3xf32>
  %i0c = stablehlo.constant dense<0> : tensor<i32>
  %i0 = stablehlo.optimization_barrier %i0c : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %na = stablehlo.constant dense<1> : tensor<i32>
  %ra:5 = stablehlo.while(%v = %v0, %acc = %acc0, %w = %w0, %o = %o0, %i = %i0) : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<6x3xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %na, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %vk = stablehlo.multiply %v, %k : tensor<3xf32>
      %v1 = stablehlo.add %vk, %w : tensor<3xf32>
      %acc1 = stablehlo.add %acc, %v : tensor<3xf32>
      %row = stablehlo.reshape %v1 : (tensor<3xf32>) -> tensor<1x3xf32>
      %o1 = stablehlo.dynamic_update_slice %o, %row, %i, %zero : (tensor<6x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<6x3xf32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %v1, %acc1, %w, %o1, %i1 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<6x3xf32>, tensor<i32>
    }
  check.expect_eq_const %ra#0, dense<[0.75, 0.0, 3.5]> : tensor<3xf32>
  check.expect_eq_const %ra#1, dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  check.expect_eq_const %ra#2, dense<[0.25, -1.0, 2.0]> : tensor<3xf32>
  check.expect_eq_const %ra#3, dense<[[0.75, 0.0, 3.5], [7.0, 7.0, 7.0], [7.0, 7.0, 7.0], [7.0, 7.0, 7.0], [7.0, 7.0, 7.0], [7.0, 7.0, 7.0]]> : tensor<6x3xf32>
  check.expect_eq_const %ra#4, dense<1> : tensor<i32>
  %nb = stablehlo.constant dense<4> : tensor<i32>
  %rb:5 = stablehlo.while(%v = %v0, %acc = %acc0, %w = %w0, %o = %o0, %i = %i0) : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<6x3xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %nb, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %vk = stablehlo.multiply %v, %k : tensor<3xf32>
      %v1 = stablehlo.add %vk, %w : tensor<3xf32>
      %acc1 = stablehlo.add %acc, %v : tensor<3xf32>
      %row = stablehlo.reshape %v1 : (tensor<3xf32>) -> tensor<1x3xf32>
      %o1 = stablehlo.dynamic_update_slice %o, %row, %i, %zero : (tensor<6x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<6x3xf32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %v1, %acc1, %w, %o1, %i1 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<6x3xf32>, tensor<i32>
    }
  check.expect_eq_const %rb#0, dense<[0.53125, -1.75, 3.9375]> : tensor<3xf32>
  check.expect_eq_const %rb#3, dense<[[0.75, 0.0, 3.5], [0.625, -1.0, 3.75], [0.5625, -1.5, 3.875], [0.53125, -1.75, 3.9375], [7.0, 7.0, 7.0], [7.0, 7.0, 7.0]]> : tensor<6x3xf32>
  check.expect_eq_const %rb#4, dense<4> : tensor<i32>
  %nc = stablehlo.constant dense<5> : tensor<i32>
  %rc:5 = stablehlo.while(%v = %v0, %acc = %acc0, %w = %w0, %o = %o0, %i = %i0) : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<6x3xf32>, tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %nc, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %vk = stablehlo.multiply %v, %k : tensor<3xf32>
      %v1 = stablehlo.add %vk, %w : tensor<3xf32>
      %acc1 = stablehlo.add %acc, %v : tensor<3xf32>
      %row = stablehlo.reshape %v1 : (tensor<3xf32>) -> tensor<1x3xf32>
      %o1 = stablehlo.dynamic_update_slice %o, %row, %i, %zero : (tensor<6x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<6x3xf32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %v1, %acc1, %w, %o1, %i1 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<6x3xf32>, tensor<i32>
    }
  check.expect_eq_const %rc#1, dense<[3.46875, -2.25, 18.0625]> : tensor<3xf32>
  check.expect_eq_const %rc#2, dense<[0.25, -1.0, 2.0]> : tensor<3xf32>
  check.expect_eq_const %rc#3, dense<[[0.75, 0.0, 3.5], [0.625, -1.0, 3.75], [0.5625, -1.5, 3.875], [0.53125, -1.75, 3.9375], [0.515625, -1.875, 3.96875], [7.0, 7.0, 7.0]]> : tensor<6x3xf32>
  check.expect_eq_const %rc#4, dense<5> : tensor<i32>
  func.return
}

// -----

// Loops whose bodies are all generated loops on one thread run compiled whole (a driver:
// while_driver.h): the condition and the bodies' kernels in one function. An odd and an
// even number of iterations (the result is in the one of the two alternating tensors the
// last iteration wrote), a fold in the body, and a state of 3 values (fewer points than
// lanes: one vector, loopnest.c).
func.func @driven_odd_even() {
  %x0 = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %acc0 = stablehlo.constant dense<0.0> : tensor<f32>
  %half = stablehlo.constant dense<0.5> : tensor<3xf32>
  %onef = stablehlo.constant dense<1.0> : tensor<3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %i0c = stablehlo.constant dense<0> : tensor<i32>
  %i0 = stablehlo.optimization_barrier %i0c : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r7:3 = stablehlo.while(%x = %x0, %acc = %acc0, %i = %i0) : tensor<3xf32>, tensor<f32>, tensor<i32>
    cond {
      %n = stablehlo.constant dense<7> : tensor<i32>
      %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
      %acc1 = stablehlo.add %acc, %s : tensor<f32>
      %xh = stablehlo.multiply %x, %half : tensor<3xf32>
      %x1 = stablehlo.add %xh, %onef : tensor<3xf32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %x1, %acc1, %i1 : tensor<3xf32>, tensor<f32>, tensor<i32>
    }
  check.expect_eq_const %r7#0, dense<[1.9921875, 2.0, 2.0078125]> : tensor<3xf32>
  check.expect_eq_const %r7#1, dense<42.0> : tensor<f32>
  check.expect_eq_const %r7#2, dense<7> : tensor<i32>
  %r10:3 = stablehlo.while(%x = %x0, %acc = %acc0, %i = %i0) : tensor<3xf32>, tensor<f32>, tensor<i32>
    cond {
      %n = stablehlo.constant dense<10> : tensor<i32>
      %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
      %acc1 = stablehlo.add %acc, %s : tensor<f32>
      %xh = stablehlo.multiply %x, %half : tensor<3xf32>
      %x1 = stablehlo.add %xh, %onef : tensor<3xf32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %x1, %acc1, %i1 : tensor<3xf32>, tensor<f32>, tensor<i32>
    }
  check.expect_eq_const %r10#0, dense<[1.9990234375, 2.0, 2.0009765625]> : tensor<3xf32>
  check.expect_eq_const %r10#1, dense<60.0> : tensor<f32>
  check.expect_eq_const %r10#2, dense<10> : tensor<i32>
  // no iteration: the operands come back
  %r0:3 = stablehlo.while(%x = %x0, %acc = %acc0, %i = %i0) : tensor<3xf32>, tensor<f32>, tensor<i32>
    cond {
      %n = stablehlo.constant dense<0> : tensor<i32>
      %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %xh = stablehlo.multiply %x, %half : tensor<3xf32>
      %x1 = stablehlo.add %xh, %onef : tensor<3xf32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %x1, %acc, %i1 : tensor<3xf32>, tensor<f32>, tensor<i32>
    }
  check.expect_eq_const %r0#0, dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  check.expect_eq_const %r0#2, dense<0> : tensor<i32>
  func.return
}

// -----

// Driven conditions of every form: an i64 counter down (GT), a ui32 one against a constant
// on the left (NE), a bound the condition captures (LE), a ui8 counter past 127 (LT:
// compared unsigned, zero-extended).
func.func @driven_conditions() {
  %y0 = stablehlo.constant dense<[0.5, -0.5]> : tensor<2xf32>
  %c9 = stablehlo.constant dense<9> : tensor<i64>
  %j0 = stablehlo.optimization_barrier %c9 : tensor<i64>
  %onel = stablehlo.constant dense<1> : tensor<i64>
  %rd:2 = stablehlo.while(%y = %y0, %j = %j0) : tensor<2xf32>, tensor<i64>
    cond {
      %z = stablehlo.constant dense<0> : tensor<i64>
      %c = stablehlo.compare GT, %j, %z, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %jf = stablehlo.convert %j : (tensor<i64>) -> tensor<f32>
      %jb = stablehlo.broadcast_in_dim %jf, dims = [] : (tensor<f32>) -> tensor<2xf32>
      %y1 = stablehlo.add %y, %jb : tensor<2xf32>
      %j1 = stablehlo.subtract %j, %onel : tensor<i64>
      stablehlo.return %y1, %j1 : tensor<2xf32>, tensor<i64>
    }
  check.expect_eq_const %rd#0, dense<[45.5, 44.5]> : tensor<2xf32>
  check.expect_eq_const %rd#1, dense<0> : tensor<i64>
  %z0 = stablehlo.constant dense<[1, -1, 3, 0, 7]> : tensor<5xi32>
  %u0c = stablehlo.constant dense<0> : tensor<ui32>
  %u0 = stablehlo.optimization_barrier %u0c : tensor<ui32>
  %oneu = stablehlo.constant dense<1> : tensor<ui32>
  %two = stablehlo.constant dense<2> : tensor<5xi32>
  %ru:2 = stablehlo.while(%z = %z0, %u = %u0) : tensor<5xi32>, tensor<ui32>
    cond {
      %five = stablehlo.constant dense<5> : tensor<ui32>
      %c = stablehlo.compare NE, %five, %u, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %z1 = stablehlo.multiply %z, %two : tensor<5xi32>
      %u1 = stablehlo.add %u, %oneu : tensor<ui32>
      stablehlo.return %z1, %u1 : tensor<5xi32>, tensor<ui32>
    }
  check.expect_eq_const %ru#0, dense<[32, -32, 96, 0, 224]> : tensor<5xi32>
  check.expect_eq_const %ru#1, dense<5> : tensor<ui32>
  %nb = stablehlo.constant dense<3> : tensor<i32>
  %n = stablehlo.optimization_barrier %nb : tensor<i32>
  %i0c = stablehlo.constant dense<0> : tensor<i32>
  %i0 = stablehlo.optimization_barrier %i0c : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %w0 = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]> : tensor<9xf32>
  %step = stablehlo.constant dense<1.5> : tensor<9xf32>
  %rc:2 = stablehlo.while(%w = %w0, %i = %i0) : tensor<9xf32>, tensor<i32>
    cond {
      %c = stablehlo.compare LE, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %w1 = stablehlo.subtract %w, %step : tensor<9xf32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %w1, %i1 : tensor<9xf32>, tensor<i32>
    }
  check.expect_eq_const %rc#0, dense<[-5.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0]> : tensor<9xf32>
  check.expect_eq_const %rc#1, dense<4> : tensor<i32>
  %b0c = stablehlo.constant dense<120> : tensor<ui8>
  %b0 = stablehlo.optimization_barrier %b0c : tensor<ui8>
  %oneb = stablehlo.constant dense<1> : tensor<ui8>
  %q0 = stablehlo.constant dense<0.0> : tensor<f32>
  %onef = stablehlo.constant dense<1.0> : tensor<f32>
  %rb:2 = stablehlo.while(%q = %q0, %b = %b0) : tensor<f32>, tensor<ui8>
    cond {
      %hi = stablehlo.constant dense<140> : tensor<ui8>
      %c = stablehlo.compare LT, %b, %hi, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %q1 = stablehlo.add %q, %onef : tensor<f32>
      %b1 = stablehlo.add %b, %oneb : tensor<ui8>
      stablehlo.return %q1, %b1 : tensor<f32>, tensor<ui8>
    }
  check.expect_eq_const %rb#0, dense<20.0> : tensor<f32>
  check.expect_eq_const %rb#1, dense<140> : tensor<ui8>
  func.return
}
