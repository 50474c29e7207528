"func.func"() <{function_type = () -> (), sym_name = "f", sym_visibility = "p"}> ({
  "func.return"() : () -> ()
}) : () -> ()
// -----
"func.func"() <{function_type = () -> (), sym_name = "g", sym_visibility = "private\00x"}> ({
  "func.return"() : () -> ()
}) : () -> ()
