tribits_package_define_dependencies(
  LIB_REQUIRED_PACKAGES DapetraCore DapetraMpi Tpetra
  LIB_REQUIRED_TPLS MPI
  )
