// ERROR: unbalanced '<' (no matching '>')
func.func @f() attributes {x = #foo.bar<a<b>
