// ERROR: unterminated string
func.func @f() attributes {note = "abc