// ERROR: found end of input
func.func @f() attributes {a = [1, 2