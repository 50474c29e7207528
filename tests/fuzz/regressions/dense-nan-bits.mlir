func.func @f() -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.constant dense<"0x0000C0FF000080FF0000C07F01000000"> : tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}
// -----
func.func @f() -> tensor<f8E4M3FN> {
  %0 = stablehlo.constant dense<"0xFF"> : tensor<f8E4M3FN>
  return %0 : tensor<f8E4M3FN>
}
