// ERROR: expected ':' and a type after dense<...>
func.func @f() {
  %0 = stablehlo.constant dense<1.0>
  return
}
