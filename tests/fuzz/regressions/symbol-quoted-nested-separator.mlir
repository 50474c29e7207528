func.func @f() attributes {x = @"::@0e", y = @""::@a, z = @"a b"::@""::@"c\22d"} {
  return
}
