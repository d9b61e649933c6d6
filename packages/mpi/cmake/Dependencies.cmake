# The Eigen adapter's plans are tested with the mpi layer's when it is enabled.
tribits_package_define_dependencies(
  LIB_REQUIRED_PACKAGES DapetraCore
  LIB_REQUIRED_TPLS MPI
  TEST_OPTIONAL_PACKAGES DapetraEigen
  )
