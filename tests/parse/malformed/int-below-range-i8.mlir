// ERROR: integer value does not fit in i8
func.func @f() -> tensor<i8> {
  %0 = stablehlo.constant dense<-129> : tensor<i8>
  return %0 : tensor<i8>
}
