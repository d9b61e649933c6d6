# The module binds the Tpetra adapter too when it is enabled.
tribits_package_define_dependencies(
  LIB_REQUIRED_PACKAGES DapetraCore DapetraMpi
  LIB_OPTIONAL_PACKAGES DapetraTpetra
  LIB_REQUIRED_TPLS MPI pybind11
  )
