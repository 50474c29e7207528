// ERROR: unknown operation "foo.bar"
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  "foo.bar"() : () -> ()
  return %a : tensor<2xf32>
}
