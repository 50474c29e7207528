// ERROR: found end of input
func.func @f(%a: tensor<2x!quant.uniform<i8:f32, 0.1