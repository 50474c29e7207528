// ERROR: unbalanced '<' (no matching '>')
sdy.mesh @mesh = <["a"=2]
