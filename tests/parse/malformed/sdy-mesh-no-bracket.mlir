// ERROR: expected '<' to open the mesh attribute
sdy.mesh @mesh = ["a"=2]
