# The round trip PETSc -> DAP -> Tpetra -> DAP -> PETSc is tested when the Tpetra adapter is enabled.
tribits_package_define_dependencies(
  LIB_REQUIRED_PACKAGES DapetraCore DapetraMpi
  LIB_REQUIRED_TPLS MPI PETSC
  TEST_OPTIONAL_PACKAGES DapetraTpetra
  )
