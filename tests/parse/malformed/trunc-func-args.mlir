// ERROR: found end of input
func.func @f(%a: tensor<2xf32>