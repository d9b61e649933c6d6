# The module binds the Tpetra adapter (and checkpoints) too when it is (they are) enabled.
tribits_package_define_dependencies(
  LIB_REQUIRED_PACKAGES DapetraCore DapetraMpi
  LIB_OPTIONAL_PACKAGES DapetraTpetra DapetraHdf5
  LIB_REQUIRED_TPLS MPI pybind11
  )
