// ERROR: use of undefined value '%0' (functions, modules and sdy.manual_computation bodies do not see values defined outside them)
%0 = stablehlo.constant dense<1.0> : tensor<f32>
func.func @f() -> tensor<f32> {
  return %0 : tensor<f32>
}
