func.func @pad_negative_interior() {
  %operand = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %pv = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.pad %operand, %pv, low = [-1, 1], high = [2, -2], interior = [1, 2] : (tensor<2x3xi32>, tensor<i32>) -> tensor<4x6xi32>
  check.expect_eq_const %r, dense<[[0, 0, 0, 0, 0, 0], [0, 4, 0, 0, 5, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]> : tensor<4x6xi32>
  func.return
}

// -----

func.func @pad_all_dropped() {
  %operand = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %pv = stablehlo.constant dense<7> : tensor<i32>
  %r = stablehlo.pad %operand, %pv, low = [-4], high = [2], interior = [0] : (tensor<3xi32>, tensor<i32>) -> tensor<1xi32>
  check.expect_eq_const %r, dense<[7]> : tensor<1xi32>
  func.return
}

// -----

func.func @pad_scalar_and_empty() {
  %operand = stablehlo.constant dense<5> : tensor<i32>
  %pv = stablehlo.constant dense<7> : tensor<i32>
  %r = stablehlo.pad %operand, %pv, low = [], high = [], interior = [] : (tensor<i32>, tensor<i32>) -> tensor<i32>
  check.expect_eq_const %r, dense<5> : tensor<i32>
  %e = stablehlo.constant dense<> : tensor<0xi32>
  %r2 = stablehlo.pad %e, %pv, low = [1], high = [1], interior = [3] : (tensor<0xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %r2, dense<[7, 7]> : tensor<2xi32>
  func.return
}

// -----

func.func @dynamic_slice_clamp() {
  %operand = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>
  %i = stablehlo.constant dense<-5> : tensor<i64>
  %j = stablehlo.constant dense<100> : tensor<i64>
  %r = stablehlo.dynamic_slice %operand, %i, %j, sizes = [2, 2] : (tensor<3x3xi32>, tensor<i64>, tensor<i64>) -> tensor<2x2xi32>
  check.expect_eq_const %r, dense<[[2, 3], [5, 6]]> : tensor<2x2xi32>
  %u = stablehlo.constant dense<[[0, 0]]> : tensor<1x2xi32>
  %big = stablehlo.constant dense<18446744073709551615> : tensor<ui64>
  %big2 = stablehlo.constant dense<0> : tensor<ui64>
  %r2 = stablehlo.dynamic_update_slice %operand, %u, %big, %big2 : (tensor<3x3xi32>, tensor<1x2xi32>, tensor<ui64>, tensor<ui64>) -> tensor<3x3xi32>
  check.expect_eq_const %r2, dense<[[1, 2, 3], [4, 5, 6], [0, 0, 9]]> : tensor<3x3xi32>
  func.return
}

// -----

func.func @slice_strided() {
  %operand = stablehlo.iota dim = 0 : tensor<10xi32>
  %r = stablehlo.slice %operand [1:10:3] : (tensor<10xi32>) -> tensor<3xi32>
  check.expect_eq_const %r, dense<[1, 4, 7]> : tensor<3xi32>
  %r2 = stablehlo.slice %operand [2:2] : (tensor<10xi32>) -> tensor<0xi32>
  check.expect_eq_const %r2, dense<> : tensor<0xi32>
  func.return
}

// -----

func.func @real_dynamic_slice() {
  %operand = stablehlo.iota dim = 1 : tensor<2x10xi32>
  %s = stablehlo.constant dense<[1, 1]> : tensor<2xi64>
  %l = stablehlo.constant dense<[2, 8]> : tensor<2xi64>
  %st = stablehlo.constant dense<[1, 3]> : tensor<2xi64>
  %r = stablehlo.real_dynamic_slice %operand, %s, %l, %st : (tensor<2x10xi32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x3xi32>
  check.expect_eq_const %r, dense<[[1, 4, 7]]> : tensor<1x3xi32>
  func.return
}

// -----

func.func @broadcast_old_and_reverse() {
  %operand = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %r = stablehlo.broadcast %operand, sizes = [3] : (tensor<2xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %r, dense<[[1, 2], [1, 2], [1, 2]]> : tensor<3x2xi32>
  %b = stablehlo.broadcast_in_dim %operand, dims = [0] : (tensor<2xi32>) -> tensor<2x3xi32>
  %rv = stablehlo.reverse %b, dims = [0, 1] : tensor<2x3xi32>
  check.expect_eq_const %rv, dense<[[2, 2, 2], [1, 1, 1]]> : tensor<2x3xi32>
  func.return
}

// -----

func.func @gather_clamp_batching() {
  %operand = stablehlo.iota dim = 0 : tensor<5x2xi32>
  %idx = stablehlo.constant dense<[[7], [-3], [2]]> : tensor<3x1xi32>
  %r = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 2, 2>
  } : (tensor<5x2xi32>, tensor<3x1xi32>) -> tensor<3x2x2xi32>
  check.expect_eq_const %r, dense<[[[3, 3], [4, 4]], [[0, 0], [1, 1]], [[2, 2], [3, 3]]]> : tensor<3x2x2xi32>
  func.return
}

// -----

func.func @gather_ivd_equals_rank() {
  %operand = stablehlo.constant dense<[10, 11, 12, 13]> : tensor<4xi32>
  %idx = stablehlo.constant dense<[[3, 1], [0, 2]]> : tensor<2x2xi64>
  %r = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>,
    slice_sizes = array<i64: 1>
  } : (tensor<4xi32>, tensor<2x2xi64>) -> tensor<2x2xi32>
  check.expect_eq_const %r, dense<[[13, 11], [10, 12]]> : tensor<2x2xi32>
  func.return
}

// -----

// A window partly outside the inputs is skipped whole (XLA's rule, JAX's FILL_OR_DROP):
// [3] and [-1] reach past the ends; [2] fits.
func.func @scatter_two_inputs_oob_partial() {
  %a = stablehlo.constant dense<[0, 0, 0, 0]> : tensor<4xi32>
  %b = stablehlo.constant dense<[1.0, 1.0, 1.0, 1.0]> : tensor<4xf32>
  %idx = stablehlo.constant dense<[[3], [-1], [2]]> : tensor<3x1xi32>
  %ua = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %ub = stablehlo.constant dense<[[2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]> : tensor<3x2xf32>
  %r:2 = "stablehlo.scatter"(%a, %b, %idx, %ua, %ub) ({
    ^bb0(%x0: tensor<i32>, %x1: tensor<f32>, %y0: tensor<i32>, %y1: tensor<f32>):
      %s = stablehlo.add %x0, %y0 : tensor<i32>
      %m = stablehlo.multiply %x1, %y1 : tensor<f32>
      stablehlo.return %s, %m : tensor<i32>, tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<4xi32>, tensor<4xf32>, tensor<3x1xi32>, tensor<3x2xi32>, tensor<3x2xf32>) -> (tensor<4xi32>, tensor<4xf32>)
  check.expect_eq_const %r#0, dense<[0, 0, 5, 6]> : tensor<4xi32>
  check.expect_eq_const %r#1, dense<[1.0, 1.0, 6.0, 7.0]> : tensor<4xf32>
  func.return
}

// -----

func.func @tuple_and_insert() {
  %c0 = arith.constant 1 : index
  %v = arith.constant 9.5 : f32
  %t = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = tensor.insert %v into %t[%c0] : tensor<2xf32>
  check.expect_eq_const %r, dense<[1.0, 9.5]> : tensor<2xf32>
  %tt = stablehlo.tuple %t, %r : tuple<tensor<2xf32>, tensor<2xf32>>
  %g = stablehlo.get_tuple_element %tt[1] : (tuple<tensor<2xf32>, tensor<2xf32>>) -> tensor<2xf32>
  check.expect_eq_const %g, dense<[1.0, 9.5]> : tensor<2xf32>
  func.return
}

// -----

func.func @torch_index_select() {
  %operand = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]> : tensor<2x3x2xi32>
  %idx = stablehlo.constant dense<[[2, 0], [1, 1]]> : tensor<2x2xi32>
  %r = "stablehlo.torch_index_select"(%operand, %idx) {dim = 1 : i64, batch_dims = 1 : i64} : (tensor<2x3x2xi32>, tensor<2x2xi32>) -> tensor<2x2x2xi32>
  check.expect_eq_const %r, dense<[[[5, 6], [1, 2]], [[9, 10], [9, 10]]]> : tensor<2x2x2xi32>
  %idx2 = stablehlo.constant dense<[[1, 0], [1, 1]]> : tensor<2x2xi32>
  %r2 = "stablehlo.torch_index_select"(%operand, %idx2) {dim = 2 : i64, batch_dims = 0 : i64} : (tensor<2x3x2xi32>, tensor<2x2xi32>) -> tensor<2x3x2x2xi32>
  check.expect_eq_const %r2, dense<[[[[2, 1], [2, 2]], [[4, 3], [4, 4]], [[6, 5], [6, 6]]], [[[8, 7], [8, 8]], [[10, 9], [10, 10]], [[12, 11], [12, 12]]]]> : tensor<2x3x2x2xi32>
  func.return
}

// -----

func.func @set_dimension_size() {
  %operand = stablehlo.iota dim = 0 : tensor<4xi32>
  %s = stablehlo.constant dense<2> : tensor<i32>
  %r = "stablehlo.set_dimension_size"(%operand, %s) {dimension = 0 : i64} : (tensor<4xi32>, tensor<i32>) -> tensor<?xi32, #stablehlo.bounds<4>>
  %n = stablehlo.get_dimension_size %r, dim = 0 : (tensor<?xi32, #stablehlo.bounds<4>>) -> tensor<i32>
  check.expect_eq_const %n, dense<2> : tensor<i32>
  func.return
}

// -----

func.func @quant_transpose_const() {
  %c = "stablehlo.constant"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>} : () -> tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>
  %t = stablehlo.transpose %c, dims = [1, 0] : (tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>
  %f = stablehlo.uniform_dequantize %t : (tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %f, dense<[[0.0, 1.0], [0.5, 1.5]]> : tensor<2x2xf32>
  func.return
}

