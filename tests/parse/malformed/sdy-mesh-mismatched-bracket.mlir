// ERROR: unbalanced '>' (expected ']')
sdy.mesh @mesh = <["a"=2>]
