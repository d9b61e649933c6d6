# The finite-element example's parts, for the plain build and for TriBITS.
# The mesh library (generation, files, output, and distribute.cpp on
# Dapetra's MPI layer) needs no Trilinos; only poisson.cpp includes
# Tpetra/Belos/Ifpack2/MueLu, and only partition.cpp Zoltan2; petsc_solve.cpp
# (PETSc KSP beside Belos) is built with the PETSc adapter, checkpoint.cpp
# (--checkpoint, --restart) with the HDF5 adapter.
set(DAPETRA_FEM_MESH_SOURCES mesh.cpp gmsh.cpp output.cpp distribute.cpp)
set(DAPETRA_FEM_SOURCES pipeline.cpp poisson.cpp elasticity.cpp partition.cpp)
set(DAPETRA_FEM_PETSC_SOURCES petsc_solve.cpp)
set(DAPETRA_FEM_HDF5_SOURCES checkpoint.cpp)
