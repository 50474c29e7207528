// ERROR: negative value for unsigned type ui8
func.func @f() -> tensor<ui8> {
  %0 = stablehlo.constant dense<-1> : tensor<ui8>
  return %0 : tensor<ui8>
}
