# With the Tpetra adapter, the library also holds the matrix deal.II's
# assembly writes into (dapetra/dealii/tpetra_matrix.hpp).
tribits_package_define_dependencies(
  LIB_REQUIRED_PACKAGES DapetraCore DapetraMpi
  LIB_OPTIONAL_PACKAGES DapetraTpetra
  LIB_REQUIRED_TPLS MPI dealii
  )
