"builtin.module"() <{sym_name = "a\02\00b"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2]>, sym_name = "m\02\00n"}> : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "f\02\00g"}> ({
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
