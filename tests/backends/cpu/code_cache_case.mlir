// Loop kernels at the top level and in the regions of a while (several code modules):
// what check_code_cache.sh compiles with a cold and a warm compile cache.
func.func @main() -> (tensor<64x128xf32>, tensor<i32>) {
  %x = stablehlo.iota dim = 1 : tensor<64x128xf32>
  %c = stablehlo.constant dense<0.01> : tensor<64x128xf32>
  %y = stablehlo.multiply %x, %c : tensor<64x128xf32>
  %e = stablehlo.exponential %y : tensor<64x128xf32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %ten = stablehlo.constant dense<10> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %v = %e) : tensor<i32>, tensor<64x128xf32>
    cond {
      %lt = stablehlo.compare LT, %i, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %i2 = stablehlo.add %i, %one : tensor<i32>
      %t = stablehlo.tanh %v : tensor<64x128xf32>
      %s = stablehlo.add %t, %v : tensor<64x128xf32>
      stablehlo.return %i2, %s : tensor<i32>, tensor<64x128xf32>
    }
  return %r#1, %r#0 : tensor<64x128xf32>, tensor<i32>
}
