// ERROR: hexadecimal payload has 3 bytes; the type needs 8
func.func @f() -> tensor<2xf32> {
  %0 = stablehlo.constant dense<"0x000000"> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
