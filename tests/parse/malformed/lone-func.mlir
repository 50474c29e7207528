// ERROR: expected the function name @name, found end of input
func.func
