func.func @f() {
  check.expect_almost_eq : tensor<2xf32>
  return
}
