# TriBITS: Dapetra's subpackages, upstream first (each one's own
# cmake/Dependencies.cmake says what it needs).
tribits_package_define_dependencies(
  SUBPACKAGES_DIRS_CLASSIFICATIONS_OPTREQS
    Core    packages/core     PT  REQUIRED
    Eigen   adapters/eigen    PT  OPTIONAL
    Mpi     packages/mpi      PT  REQUIRED
    Tpetra  adapters/tpetra   PT  OPTIONAL
    Petsc   adapters/petsc    PT  OPTIONAL
    Hdf5    adapters/hdf5     PT  OPTIONAL
    Dealii  adapters/dealii   PT  OPTIONAL
    Python  adapters/python   PT  OPTIONAL
    Fem     examples/fem      PT  OPTIONAL
  )
