// ERROR: expected the mesh name @name
sdy.mesh = <["a"=2]>
