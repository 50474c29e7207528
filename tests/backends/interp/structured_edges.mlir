func.func @sort_neg_dim() {
  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %b = stablehlo.constant dense<[[3.0, 1.0, 2.0], [-1.0, -0.0, 0.0]]> : tensor<2x3xf32>
  %r:2 = "stablehlo.sort"(%a, %b) ({
  ^bb0(%x0: tensor<i32>, %y0: tensor<i32>, %x1: tensor<f32>, %y1: tensor<f32>):
    %p = stablehlo.compare LT, %x1, %y1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = -1 : i64} : (tensor<2x3xi32>, tensor<2x3xf32>) -> (tensor<2x3xi32>, tensor<2x3xf32>)
  check.expect_eq_const %r#0, dense<[[2, 3, 1], [4, 5, 6]]> : tensor<2x3xi32>
  check.expect_eq_const %r#1, dense<[[1.0, 2.0, 3.0], [-1.0, -0.0, 0.0]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @top_k_f32() {
  %a = stablehlo.constant dense<[[1.0, 3.0, 3.0, 0x7FC00000, 2.0], [-0.0, 0.0, 0xFF800000, 0xFFC00000, 0.0]]> : tensor<2x5xf32>
  %v, %i = chlo.top_k(%a, k = 3) : tensor<2x5xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
  check.expect_eq_const %v, dense<[[0x7FC00000, 3.0, 3.0], [0.0, 0.0, -0.0]]> : tensor<2x3xf32>
  check.expect_eq_const %i, dense<[[3, 1, 2], [1, 4, 0]]> : tensor<2x3xi32>
  func.return
}

// -----

func.func @top_k_int() {
  %a = stablehlo.constant dense<[-128, 127, 0, -1]> : tensor<4xi8>
  %v, %i = chlo.top_k(%a, k = 4) : tensor<4xi8> -> (tensor<4xi8>, tensor<4xi32>)
  check.expect_eq_const %v, dense<[127, 0, -1, -128]> : tensor<4xi8>
  check.expect_eq_const %i, dense<[1, 2, 3, 0]> : tensor<4xi32>
  %b = stablehlo.constant dense<[255, 0, 128]> : tensor<3xui8>
  %w, %j = chlo.top_k(%b, k = 2) : tensor<3xui8> -> (tensor<2xui8>, tensor<2xi32>)
  check.expect_eq_const %w, dense<[255, 128]> : tensor<2xui8>
  check.expect_eq_const %j, dense<[0, 2]> : tensor<2xi32>
  func.return
}

// -----

func.func @reduce_aliasing_body() {
  %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %b = stablehlo.constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%a init: %z), (%b init: %z) across dimensions = [0] : (tensor<4xi32>, tensor<4xi32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    reducer(%acc0: tensor<i32>, %x0: tensor<i32>) (%acc1: tensor<i32>, %x1: tensor<i32>) {
      stablehlo.return %x1, %acc0 : tensor<i32>, tensor<i32>
    }
  check.expect_eq_const %r#0, dense<40> : tensor<i32>
  check.expect_eq_const %r#1, dense<30> : tensor<i32>
  func.return
}

// -----

func.func @reduce_two_dims() {
  %a = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]> : tensor<2x3x2xi64>
  %z = stablehlo.constant dense<100> : tensor<i64>
  %r = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0, 2] : (tensor<2x3x2xi64>, tensor<i64>) -> tensor<3xi64>
  check.expect_eq_const %r, dense<[118, 126, 134]> : tensor<3xi64>
  %e = stablehlo.constant dense<> : tensor<0x3xi64>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [0] : (tensor<0x3xi64>, tensor<i64>) -> tensor<3xi64>
  check.expect_eq_const %s, dense<100> : tensor<3xi64>
  func.return
}

// -----

func.func @reduce_promote() {
  %a = stablehlo.constant dense<[100, 100, 100]> : tensor<3xi8>
  %z = stablehlo.constant dense<0> : tensor<i8>
  %r = "stablehlo.reduce"(%a, %z) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %s = stablehlo.add %x, %y : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {dimensions = array<i64: 0>} : (tensor<3xi8>, tensor<i8>) -> tensor<i32>
  check.expect_eq_const %r, dense<300> : tensor<i32>
  func.return
}

// -----

func.func @reduce_window_pad() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = "stablehlo.reduce_window"(%a, %m) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, padding = dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>} : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  check.expect_eq_const %r, dense<[[2.0, 2.0], [4.0, 4.0]]> : tensor<2x2xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = "stablehlo.reduce_window"(%a, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2, 1>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 2, 1>} : (tensor<2x2xf32>, tensor<f32>) -> tensor<1x2xf32>
  check.expect_eq_const %s, dense<[[4.0, 6.0]]> : tensor<1x2xf32>
  func.return
}

// -----

// Windows spanning the axis, padded before it (jax's cumulative reductions): a body whose
// init folds to itself runs as a running fold (the same folds, in order); one whose init
// does not (add from 1) folds the padding into every window.
func.func @reduce_window_prefix() {
  %z4 = stablehlo.constant dense<0.0> : tensor<4xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %l = "stablehlo.reduce_window"(%z4, %ninf) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    %d = stablehlo.subtract %a, %b : tensor<f32>
    %nan = stablehlo.compare NE, %d, %d, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %s = stablehlo.add %a, %b : tensor<f32>
    %ad = stablehlo.abs %d : tensor<f32>
    %nd = stablehlo.negate %ad : tensor<f32>
    %e = stablehlo.exponential %nd : tensor<f32>
    %lp = stablehlo.log_plus_one %e : tensor<f32>
    %r = stablehlo.add %m, %lp : tensor<f32>
    %v = stablehlo.select %nan, %s, %r : tensor<i1>, tensor<f32>
    stablehlo.return %v : tensor<f32>
  }) {window_dimensions = array<i64: 4>, padding = dense<[[3, 0]]> : tensor<1x2xi64>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_almost_eq_const %l, dense<[0.0, 0.693147182, 1.09861231, 1.38629436]> : tensor<4xf32>
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %a = "stablehlo.reduce_window"(%x, %one) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 3>, padding = dense<[[2, 0]]> : tensor<1x2xi64>} : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %a, dense<[4.0, 5.0, 7.0]> : tensor<3xf32>
  %y = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %i1 = stablehlo.constant dense<1> : tensor<i32>
  %c = "stablehlo.reduce_window"(%y, %i1) ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %s = stablehlo.multiply %p, %q : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 3, 1>, padding = dense<[[2, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<3x2xi32>, tensor<i32>) -> tensor<3x2xi32>
  check.expect_eq_const %c, dense<[[1, 2], [3, 8], [15, 48]]> : tensor<3x2xi32>
  func.return
}

// -----

func.func @select_and_scatter_init() {
  %op = stablehlo.constant dense<[1, 5, 3]> : tensor<3xi32>
  %src = stablehlo.constant dense<[10, 20]> : tensor<2xi32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r = "stablehlo.select_and_scatter"(%op, %src, %one) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %p = stablehlo.compare GE, %x, %y : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %s = stablehlo.add %x, %y : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 1>} : (tensor<3xi32>, tensor<2xi32>, tensor<i32>) -> tensor<3xi32>
  check.expect_eq_const %r, dense<[1, 31, 1]> : tensor<3xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %q = "stablehlo.select_and_scatter"(%op, %src, %zero) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %p = stablehlo.compare GE, %x, %y : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %s = stablehlo.add %x, %y : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>, padding = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<3xi32>, tensor<2xi32>, tensor<i32>) -> tensor<3xi32>
  check.expect_eq_const %q, dense<[10, 20, 0]> : tensor<3xi32>
  func.return
}

// -----

func.func @scan_no_inputs_reverse() {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = chlo.scan() inits(%c) dimension=0 attributes {is_reverse = true} {
  ^bb0(%carry: tensor<i32>):
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %carry, %one : tensor<i32>
    stablehlo.return %n, %n : tensor<i32>, tensor<i32>
  } : (tensor<i32>) -> (tensor<3xi32>, tensor<i32>)
  check.expect_eq_const %r#0, dense<[3, 2, 1]> : tensor<3xi32>
  check.expect_eq_const %r#1, dense<3> : tensor<i32>
  func.return
}

// -----

func.func @scan_dim1_reverse() {
  %input = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %init = stablehlo.constant dense<0> : tensor<2xi32>
  %0:2 = chlo.scan(%input) inits(%init) dimension=1 attributes {is_reverse = true} {
  ^bb0(%a: tensor<2xi32>, %b: tensor<2xi32>):
    %1 = stablehlo.add %a, %b : tensor<2xi32>
    stablehlo.return %1, %1 : tensor<2xi32>, tensor<2xi32>
  } : (tensor<2x3xi32>, tensor<2xi32>) -> (tensor<2x3xi32>, tensor<2xi32>)
  check.expect_eq_const %0#0, dense<[[6, 5, 3], [15, 11, 6]]> : tensor<2x3xi32>
  check.expect_eq_const %0#1, dense<[6, 15]> : tensor<2xi32>
  func.return
}

// -----

func.func @map_mixed() {
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = stablehlo.constant dense<[1.5, 1.5, 1.5]> : tensor<3xf32>
  %r = "stablehlo.map"(%a, %b) ({
  ^bb0(%x: tensor<i32>, %y: tensor<f32>):
    %c = stablehlo.convert %x : (tensor<i32>) -> tensor<f32>
    %p = stablehlo.compare GT, %c, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimensions = array<i64: 0>} : (tensor<3xi32>, tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const %r, dense<[false, true, true]> : tensor<3xi1>
  func.return
}

// -----

func.func @bn_spec_f64() {
  %x = stablehlo.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [1.0, 2.0]]]> : tensor<2x2x2xf64>
  %one = stablehlo.constant dense<1.0> : tensor<2xf64>
  %mean = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf64>
  %y, %m, %v = "stablehlo.batch_norm_training"(%x, %one, %one) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)
  check.expect_eq_const %y, dense<[[[0.0, 0.0], [2.0, 2.0]], [[2.0, 2.0], [0.0, 0.0]]]> : tensor<2x2x2xf64>
  check.expect_eq_const %m, dense<[2.0, 3.0]> : tensor<2xf64>
  check.expect_eq_const %v, dense<[1.0, 1.0]> : tensor<2xf64>
  %z = "stablehlo.batch_norm_inference"(%x, %one, %one, %mean, %one) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>) -> tensor<2x2x2xf64>
  check.expect_eq_const %z, dense<[[[0.0, 0.0], [2.0, 2.0]], [[2.0, 2.0], [0.0, 0.0]]]> : tensor<2x2x2xf64>
  %dy = stablehlo.constant dense<0.1> : tensor<2x2x2xf64>
  %gx, %gs, %gb = "stablehlo.batch_norm_grad"(%x, %one, %mean, %one, %dy) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2x2x2xf64>) -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)
  check.expect_almost_eq_const %gx, dense<0.0> : tensor<2x2x2xf64>
  check.expect_almost_eq_const %gs, dense<0.0> : tensor<2xf64>
  check.expect_almost_eq_const %gb, dense<0.4> : tensor<2xf64>
  func.return
}
