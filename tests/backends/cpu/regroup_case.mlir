// A float segment sum big enough for scatter.c's private copies (16,384 points of 8 into
// 64 rows, unsorted ids): values of 0.37 times integers up to 10,005, whose sums round, so
// that their grouping shows in the bits (check_regroup.sh).
func.func @main() -> tensor<64x8xf32> {
  %p = stablehlo.iota dim = 0 : tensor<16384x1xi32>
  %c37 = stablehlo.constant dense<37> : tensor<16384x1xi32>
  %c67 = stablehlo.constant dense<67> : tensor<16384x1xi32>
  %c1 = stablehlo.constant dense<1> : tensor<16384x1xi32>
  %p37 = stablehlo.multiply %p, %c37 : tensor<16384x1xi32>
  %r67 = stablehlo.remainder %p37, %c67 : tensor<16384x1xi32>
  %ids = stablehlo.subtract %r67, %c1 : tensor<16384x1xi32>
  %pu = stablehlo.iota dim = 0 : tensor<16384x8xi32>
  %ku = stablehlo.iota dim = 1 : tensor<16384x8xi32>
  %a = stablehlo.constant dense<7919> : tensor<16384x8xi32>
  %b = stablehlo.constant dense<104729> : tensor<16384x8xi32>
  %m = stablehlo.constant dense<20011> : tensor<16384x8xi32>
  %h = stablehlo.constant dense<10005> : tensor<16384x8xi32>
  %pa = stablehlo.multiply %pu, %a : tensor<16384x8xi32>
  %kb = stablehlo.multiply %ku, %b : tensor<16384x8xi32>
  %s = stablehlo.add %pa, %kb : tensor<16384x8xi32>
  %r = stablehlo.remainder %s, %m : tensor<16384x8xi32>
  %c = stablehlo.subtract %r, %h : tensor<16384x8xi32>
  %cf = stablehlo.convert %c : (tensor<16384x8xi32>) -> tensor<16384x8xf32>
  %k = stablehlo.constant dense<0.37> : tensor<16384x8xf32>
  %u = stablehlo.multiply %cf, %k : tensor<16384x8xf32>
  %x = stablehlo.constant dense<0.5> : tensor<64x8xf32>
  %sum = "stablehlo.scatter"(%x, %ids, %u) ({
  ^bb0(%l: tensor<f32>, %q: tensor<f32>):
    %t = stablehlo.add %l, %q : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<64x8xf32>, tensor<16384x1xi32>, tensor<16384x8xf32>) -> tensor<64x8xf32>
  func.return %sum : tensor<64x8xf32>
}
