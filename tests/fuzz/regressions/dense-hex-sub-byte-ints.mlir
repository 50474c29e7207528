func.func @f() -> tensor<2xi4> {
  %0 = stablehlo.constant dense<"0x0F0F"> : tensor<2xi4>
  return %0 : tensor<2xi4>
}
// -----
func.func @f() -> tensor<2xui4> {
  %0 = stablehlo.constant dense<"0xFFFF"> : tensor<2xui4>
  return %0 : tensor<2xui4>
}
