// Small conditionals made selects by the cpu backend (src/passes/select_branches.c:
// test_loop_passes checks how many each function has rewritten); kiln check runs them on
// cpu and on the interpreter, which keeps every conditional.

// lax.cond in a scan (a case on a boolean converted to i32), scalars: both branches
// computed, the carried value selected; x = [1, -2, 3, -4]: c = 0.9c + x when x > 0, else
// c - x/2: 1, 2, 4.8, 6.8.
// selected: 1
func.func @cond_in_scan() {
  %xs = stablehlo.constant dense<[1.0, -2.0, 3.0, -4.0]> : tensor<4xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %out0 = stablehlo.constant dense<0.0> : tensor<4xf32>
  %n = stablehlo.constant dense<4> : tensor<i32>
  %i0 = stablehlo.optimization_barrier %c0 : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %c = %zero, %out = %out0) : tensor<i32>, tensor<f32>, tensor<4xf32>
    cond {
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %s = stablehlo.dynamic_slice %xs, %i, sizes = [1] : (tensor<4xf32>, tensor<i32>) -> tensor<1xf32>
      %x = stablehlo.reshape %s : (tensor<1xf32>) -> tensor<f32>
      %pos = stablehlo.compare GT, %x, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %idx = stablehlo.convert %pos : (tensor<i1>) -> tensor<i32>
      %c2 = "stablehlo.case"(%idx) ({
        %h = stablehlo.constant dense<0.5> : tensor<f32>
        %m = stablehlo.multiply %x, %h : tensor<f32>
        %d = stablehlo.subtract %c, %m : tensor<f32>
        stablehlo.return %d : tensor<f32>
      }, {
        %k = stablehlo.constant dense<0.9> : tensor<f32>
        %m = stablehlo.multiply %c, %k : tensor<f32>
        %a = stablehlo.add %m, %x : tensor<f32>
        stablehlo.return %a : tensor<f32>
      }) : (tensor<i32>) -> tensor<f32>
      %b = stablehlo.broadcast_in_dim %c2, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %o = stablehlo.dynamic_update_slice %out, %b, %i : (tensor<4xf32>, tensor<1xf32>, tensor<i32>) -> tensor<4xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %j, %c2, %o : tensor<i32>, tensor<f32>, tensor<4xf32>
    }
  check.expect_almost_eq_const %r#2, dense<[1.0, 2.0, 4.8, 6.8]> : tensor<4xf32>
  func.return
}

// -----

// stablehlo.if with two results of 4 elements, one branch reading a value from outside,
// and inside the true branch of an outer case on a boolean: both are rewritten (inner
// first), the outer one then reading the inner's selects.
// selected: 2
func.func @if_nested_in_case() {
  %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %b = stablehlo.constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %p = stablehlo.optimization_barrier %t : tensor<i1>
  %q = stablehlo.optimization_barrier %f : tensor<i1>
  %idx = stablehlo.convert %p : (tensor<i1>) -> tensor<i32>
  %r:2 = "stablehlo.case"(%idx) ({
    stablehlo.return %a, %b : tensor<4xi32>, tensor<4xi32>
  }, {
    %u:2 = "stablehlo.if"(%q) ({
      %s = stablehlo.add %a, %b : tensor<4xi32>
      stablehlo.return %s, %a : tensor<4xi32>, tensor<4xi32>
    }, {
      %d = stablehlo.subtract %b, %a : tensor<4xi32>
      %m = stablehlo.multiply %d, %a : tensor<4xi32>
      stablehlo.return %m, %d : tensor<4xi32>, tensor<4xi32>
    }) : (tensor<i1>) -> (tensor<4xi32>, tensor<4xi32>)
    stablehlo.return %u#0, %u#1 : tensor<4xi32>, tensor<4xi32>
  }) : (tensor<i32>) -> (tensor<4xi32>, tensor<4xi32>)
  check.expect_eq_const %r#0, dense<[9, 36, 81, 144]> : tensor<4xi32>
  check.expect_eq_const %r#1, dense<[9, 18, 27, 36]> : tensor<4xi32>
  func.return
}

// -----

// Kept: three branches (lax.switch: the index is no boolean), a branch of more than 64
// elements, a branch with a loop in it.
// selected: 0
func.func @kept() {
  %i = stablehlo.constant dense<2> : tensor<i32>
  %ib = stablehlo.optimization_barrier %i : tensor<i32>
  %x = stablehlo.constant dense<3.0> : tensor<f32>
  %r = "stablehlo.case"(%ib) ({
    stablehlo.return %x : tensor<f32>
  }, {
    %n = stablehlo.negate %x : tensor<f32>
    stablehlo.return %n : tensor<f32>
  }, {
    %s = stablehlo.add %x, %x : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  check.expect_eq_const %r, dense<6.0> : tensor<f32>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %p = stablehlo.optimization_barrier %t : tensor<i1>
  %big = stablehlo.iota dim = 0 : tensor<128xf32>
  %v = "stablehlo.if"(%p) ({
    %d = stablehlo.add %big, %big : tensor<128xf32>
    stablehlo.return %d : tensor<128xf32>
  }, {
    stablehlo.return %big : tensor<128xf32>
  }) : (tensor<i1>) -> tensor<128xf32>
  %last = stablehlo.slice %v [127:128] : (tensor<128xf32>) -> tensor<1xf32>
  check.expect_eq_const %last, dense<254.0> : tensor<1xf32>
  %w = "stablehlo.if"(%p) ({
    %z = stablehlo.constant dense<0> : tensor<i32>
    %l = stablehlo.while(%k = %z) : tensor<i32>
      cond {
        %three = stablehlo.constant dense<3> : tensor<i32>
        %c = stablehlo.compare LT, %k, %three, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %c : tensor<i1>
      } do {
        %one = stablehlo.constant dense<1> : tensor<i32>
        %k2 = stablehlo.add %k, %one : tensor<i32>
        stablehlo.return %k2 : tensor<i32>
      }
    stablehlo.return %l : tensor<i32>
  }, {
    %z = stablehlo.constant dense<7> : tensor<i32>
    stablehlo.return %z : tensor<i32>
  }) : (tensor<i1>) -> tensor<i32>
  check.expect_eq_const %w, dense<3> : tensor<i32>
  func.return
}
