# Parallel HDF5 is a TPL (cmake/tpls/FindTPLHDF5.cmake; in Trilinos, its own HDF5 TPL).
tribits_package_define_dependencies(
  LIB_REQUIRED_PACKAGES DapetraCore DapetraMpi
  LIB_REQUIRED_TPLS MPI HDF5
  )
