// ERROR: integer value does not fit in i8
func.func @f() -> tensor<2xi8> {
  %0 = stablehlo.constant dense<[255, 256]> : tensor<2xi8>
  return %0 : tensor<2xi8>
}
