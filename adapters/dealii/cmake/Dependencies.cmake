# The Tpetra views of deal.II's vectors are tested when the Tpetra adapter is enabled.
tribits_package_define_dependencies(
  LIB_REQUIRED_PACKAGES DapetraCore DapetraMpi
  LIB_REQUIRED_TPLS MPI dealii
  TEST_OPTIONAL_PACKAGES DapetraTpetra
  )
