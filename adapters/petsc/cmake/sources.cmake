# The PETSc adapter's sources, for the plain build (CMakeLists.txt) and for TriBITS
# (cmake/tribits.cmake): written once.
set(DAPETRA_PETSC_SOURCES
  src/mat.cpp
  src/vec.cpp)
